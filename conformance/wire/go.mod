module github.com/codemodekit/kit/conformance/wire

go 1.26

require github.com/google/go-cmp v0.7.0
