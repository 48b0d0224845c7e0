# Code Mode Kit. The two entry points:
#   make conformance   the main job: the conformance suite against the embedded reference
#   make test          every module's tests with -race, then the conformance suite
# Both install what they need (the pinned quickjs-wasi wasm through npm's lockfile).

GO      ?= go
MODULES := features fixtures fakes conformance reference tools
WASM    := reference/node_modules/quickjs-wasi/quickjs.wasm
REPORT  ?= reports/reference

.PHONY: all conformance test deps vet fmt-check clean

all: test

deps: $(WASM)

$(WASM): reference/package.json reference/package-lock.json
	cd reference && npm ci --ignore-scripts --no-audit --no-fund
	@test -f $@
	@touch $@

conformance: deps
	cd tools && $(GO) run ./cmd/conform --report ../$(REPORT)

test: deps vet fmt-check
	scripts/test.sh $(MODULES)
	$(MAKE) conformance

vet:
	@for m in $(MODULES); do (cd $$m && GOWORK=off $(GO) vet ./...) || exit 1; done

fmt-check:
	@out=$$(gofmt -l $(MODULES)); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

clean:
	rm -rf reports reference/node_modules
