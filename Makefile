# toolgate's tasks. `make test` is what CI runs (.ci/run).
GO ?= go
BENCH_COUNT ?= 10
FUZZTIME ?= 10s
FUZZPARALLEL ?= 1

.PHONY: all generate check lint calls conformance test test-all vet fmt-check unit examples-test integrations-test bench bench-real bench-gate bench-redis fuzz

# Integrations: each is its own Go module (its dependencies never enter the
# core module's go.mod), so the root's ./... skips them; they are vetted
# and tested one by one. The Redis tests need redis-server on PATH (they
# start their own servers on loopback ports); .ci/run installs it.
INTEGRATIONS := runtime/redisreplay runtime/redispending runtime/otelgate runtime/mcpgate runtime/mcpgogate

all: test

# Regenerate generated/ and the catalog schemas/CATALOG.md from schemas/.
generate:
	$(GO) run ./cmd/toolgate generate --catalog schemas/CATALOG.md

# Fail with a diff when generated/ or the catalog is stale.
check:
	$(GO) run ./cmd/toolgate check --catalog schemas/CATALOG.md

# Fail on any lint error or warning in schemas/ (hints are notes).
lint:
	$(GO) run ./cmd/toolgate lint --fail-on warning --min-severity warning

# Replay the recorded refund_order calls against schemas/: each must be
# decided as recorded.
calls:
	$(GO) run ./cmd/toolgate test --calls runtime/callrecord/testdata/refund_order

# Everything CI checks: vet, gofmt, unit and conformance tests of the core
# and examples modules and of every integration module, the lint of
# schemas/, the recorded calls and the drift check. It ends with one line
# naming each suite that was skipped and why, or "skipped: none": a test
# whose suite cannot run here (../shared missing, redis-server not
# installed) appends "suite<TAB>package and test<TAB>reason" to
# $TOOLGATE_SKIPLOG (gen/internal/suiteskip, runtime/internal/suiteskip;
# under CI=true it fails instead), and the measurements run on demand are
# named from their variables. A package that logged a skip is not cached by
# go test (the log's name changes every run), one whose suites all run is.
test:
	@log=$$(mktemp "$${TMPDIR:-/tmp}/toolgate-skipped.XXXXXX") || exit 1; \
	TOOLGATE_SKIPLOG=$$log $(MAKE) --no-print-directory test-all; rc=$$?; \
	[ -n "$$TOOLGATE_SYNTH_BUILD" ] || printf 'synthetic build measurement\tgen TestSynthBuild\ton demand: TOOLGATE_SYNTH_BUILD=N tools\n' >>$$log; \
	[ -n "$$TOOLGATE_BFCL_BUILD" ] || printf 'BFCL build measurement\tgen TestBFCLBuild\ton demand: TOOLGATE_BFCL_BUILD=1\n' >>$$log; \
	$(call skipped,$$log); rm -f $$log; exit $$rc

test-all: vet fmt-check unit examples-test integrations-test lint calls check

# skipped prints the skip log $(1) (lines "suite<TAB>where<TAB>reason") as
# one line: "skipped: A (where: reason), B (...)", or "skipped: none".
skipped = if [ -s $(1) ]; then sort -u $(1) | awk -F'\t' '{ printf "%s%s (%s: %s)", (NR > 1 ? ", " : "skipped: "), $$1, $$2, $$3 } END { print "" }'; else echo "skipped: none"; fi

# The JSON Schema Test Suite (draft 2020-12 and draft-07, from
# ../shared/corpora/jsts): per file the tests, passed, failed and skipped,
# the totals per draft, and the reason for each skipped case.
conformance:
	$(GO) test ./gen -run '^TestConformance$$' -count=1 -v | sed -n '/^        file /,/^--- /p'

vet:
	$(GO) vet ./...

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

# The corpus tests of gen build and test generated packages of real tool
# sets (several minutes on two cores), past go test's default 10 minutes.
unit:
	$(GO) test -timeout 30m ./...

# Then toolgate vet over the examples module: it must exit 1 with exactly
# the findings planted in examples/bypass (examples/bypass/vet.golden) and
# report nothing else.
examples-test:
	cd examples && $(GO) vet ./... && $(GO) test ./...
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	$(GO) build -o "$$tmp/toolgate" ./cmd/toolgate || exit 1; \
	code=0; (cd examples && "$$tmp/toolgate" vet ./...) > "$$tmp/vet.out" || code=$$?; \
	if [ "$$code" != 1 ]; then cat "$$tmp/vet.out"; echo "toolgate vet on examples: exit $$code, want 1"; exit 1; fi; \
	diff -u examples/bypass/vet.golden "$$tmp/vet.out" || { echo "toolgate vet on examples: findings differ from examples/bypass/vet.golden"; exit 1; }

integrations-test:
	@set -e; for m in $(INTEGRATIONS); do \
		echo "== $$m"; (cd $$m && $(GO) vet ./... && $(GO) test ./...); \
	done

# The side-by-side decode table of $(BENCH_PAGE): the decoders of the
# schemas in $(SHARED_BENCH), each wrapped as a tool file and generated into
# gen/internal/benchside/testdata/shared (not committed), and of the demo tools,
# against encoding/json.Valid, the strict reader's skip, jsonschema two-pass
# and encoding/json strict, as medians of per-round ratios of $(BENCH_ROUNDS)
# interleaved rounds. The table (bench-sidebyside.txt), with the date, the
# machine (uname -m, the CPU model of /proc/cpuinfo) and go version, replaces
# what stands between the page's two "make bench" markers. Then the go test
# benchmarks of the demo tools
# (gen/internal/integration); compare two such runs with
# `go run golang.org/x/perf/cmd/benchstat@latest OLD NEW`.
SHARED_BENCH ?= ../shared/bench
BENCH_ROUNDS ?= 10
BENCH_TOOLS := $(or $(TMPDIR),/tmp)/toolgate-bench-tools
BENCH_PAGE := gen/internal/benchside/PERFORMANCE.md

bench:
	@test -d $(SHARED_BENCH) || { echo "bench: $(SHARED_BENCH) is missing"; exit 1; }
	rm -rf $(BENCH_TOOLS) && mkdir -p $(BENCH_TOOLS)
	for f in $(SHARED_BENCH)/*.schema.json; do \
		t=$$(basename $$f .schema.json); \
		printf '{"name":"%s","description":"Benchmark tool %s, the shared benchmark schema; use it only to measure decoders. Returns nothing.","parameters":%s}' \
			$$t $$t "$$(cat $$f)" > $(BENCH_TOOLS)/$$t.json || exit 1; \
	done
	$(GO) run ./cmd/toolgate generate --schemas $(BENCH_TOOLS) --out gen/internal/benchside/testdata/shared --package shared
	$(GO) run ./gen/internal/benchside/testdata/sidebyside -shared $(SHARED_BENCH) -rounds $(BENCH_ROUNDS) > bench-sidebyside.txt; \
		status=$$?; cat bench-sidebyside.txt; exit $$status
	@grep -qx '<!-- make bench: table -->' $(BENCH_PAGE) && grep -qx '<!-- make bench: end -->' $(BENCH_PAGE) \
		|| { echo "bench: $(BENCH_PAGE) lacks its make bench markers"; exit 1; }
	{ sed '/^<!-- make bench: table -->$$/q' $(BENCH_PAGE); \
		cpu=$$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1); \
		printf 'Run of %s UTC on %s, CPU "%s", %s, with `make bench BENCH_ROUNDS=%s`:\n\n' \
			"$$(date -u '+%Y-%m-%d %H:%M')" "$$(uname -m)" "$${cpu:-unknown}" "$$($(GO) version)" "$(BENCH_ROUNDS)"; \
		cat bench-sidebyside.txt; \
		sed -n '/^<!-- make bench: end -->$$/,$$p' $(BENCH_PAGE); } > $(BENCH_PAGE).tmp && mv $(BENCH_PAGE).tmp $(BENCH_PAGE)
	$(GO) test ./gen/internal/integration -run '^$$' -bench . -benchmem -count $(BENCH_COUNT) | tee bench-generated.txt

# The same table for real tool schemas (gen/internal/realset):
# functions of the Berkeley function-calling leaderboard with a call built
# from the corpus's ground truth, and MCP tools with runtime/contract's
# valid base instance, all read from $(SHARED_CORPORA). realprep writes their
# tool files and the index realside reads (real_tools.go); they are generated
# into gen/internal/benchside/testdata/real (not committed).
SHARED_CORPORA ?= ../shared/corpora
BENCH_REAL_TOOLS := $(or $(TMPDIR),/tmp)/toolgate-bench-real-tools
BENCH_REAL_PKG := gen/internal/benchside/testdata/real

bench-real:
	@test -d $(SHARED_CORPORA) || { echo "bench-real: $(SHARED_CORPORA) is missing"; exit 1; }
	rm -rf $(BENCH_REAL_TOOLS) && mkdir -p $(BENCH_REAL_TOOLS)
	$(GO) run ./gen/internal/realset/realprep -corpora $(SHARED_CORPORA) -tools $(BENCH_REAL_TOOLS) -pkg $(BENCH_REAL_PKG)
	$(GO) run ./cmd/toolgate generate --schemas $(BENCH_REAL_TOOLS) --out $(BENCH_REAL_PKG) --package real
	$(GO) run ./gen/internal/benchside/testdata/realside -rounds $(BENCH_ROUNDS) > bench-real.txt; \
		status=$$?; cat bench-real.txt; exit $$status

# The gate's cost beyond the bare decoder (BenchmarkDispatch of
# gen/internal/integration, over the demo tools of generated/). The
# test binary runs BENCH_COUNT times, each run one round of every variant
# (the decoder first) for BENCH_TIME each, so that the rounds interleave and
# a busy neighbour slows a round's variants alike. For each variant it prints
# the median wall and CPU ns/op, the median over the rounds of its ratio to
# the round's decoder in CPU time (the process's, garbage collection and the
# executors' goroutines included), and its allocations; then, for each
# auditor, the median over the rounds of its CPU cost over the same path
# without one. A refused call's variants (group/variant, e.g.
# three-violations/no-id) take their ratio to their group's decoder
# refusing the same bytes (group/decode) instead.
BENCH_TIME ?= 500ms
bench-gate:
	@t=$$(mktemp -d) && $(GO) test -c -o $$t/integration.test ./gen/internal/integration || exit 1; \
	(cd gen/internal/integration && for i in $$(seq $(BENCH_COUNT)); do \
		$$t/integration.test -test.run '^$$' -test.bench '^BenchmarkDispatch$$' -test.benchmem -test.benchtime $(BENCH_TIME) || exit 1; \
	done) > bench-gate.txt; status=$$?; rm -rf $$t; cat bench-gate.txt; [ $$status = 0 ] || exit $$status; \
	awk '/^BenchmarkDispatch\// {n = split($$1, f, "/"); v = f[3]; for (i = 4; i <= n; i++) v = v "/" f[i]; sub(/-[0-9]+$$/, "", v); \
			if (v == "decode") r++; \
			if (!(v in seen)) {seen[v] = 1; order[++k] = v; g = index(v, "/"); base[v] = g ? substr(v, 1, g) "decode" : "decode"}; \
			for (i = 3; i < NF; i++) if ($$(i+1) == "ns/op") wall[v, r] = $$i; else if ($$(i+1) == "cpu-ns/op") ns[v, r] = $$i; \
				else if ($$(i+1) == "B/op") bytes[v] = $$i; else if ($$(i+1) == "allocs/op") allocs[v] = $$i} \
		function median(n, a,  i, j, t) {for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) {t = a[j]; a[j] = a[j-1]; a[j-1] = t} \
			return n % 2 ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2} \
		function stat(v, base, how,  i, n, a) {n = 0; split("", a); for (i = 1; i <= r; i++) if ((v, i) in ns && (base, i) in ns) \
			a[++n] = how == "ratio" ? ns[v, i] / ns[base, i] : how == "diff" ? ns[v, i] - ns[base, i] : how == "wall" ? wall[v, i] : ns[v, i]; return median(n, a)} \
		END {printf "\n%d rounds\n%-34s %9s %9s %9s %7s %7s\n", r, "variant", "ns/op", "cpu-ns/op", "x decode", "allocs", "B/op"; \
			for (i = 1; i <= k; i++) printf "%-34s %9.0f %9.0f %8.2fx %7d %7d\n", order[i], stat(order[i], order[i], "wall"), stat(order[i], order[i], "ns"), stat(order[i], base[order[i]], "ratio"), allocs[order[i]], bytes[order[i]]; \
			np = split("discard-auditor no-id inline-discard-auditor inline slog-auditor no-id", p, " "); \
			for (i = 1; i <= k; i++) if (order[i] ~ /\/discard-auditor$$/) {q = order[i]; sub(/discard-auditor$$/, "no-id", q); p[++np] = order[i]; p[++np] = q}; \
			for (i = 1; i in p; i += 2) if ((p[i] in seen) && (p[i+1] in seen)) printf "%-34s %+9.0f cpu-ns over %s\n", p[i], stat(p[i], p[i+1], "diff"), p[i+1]}' bench-gate.txt

# Every fuzz target of the core module (go test -list '^Fuzz'), one at a
# time, for FUZZTIME each with FUZZPARALLEL workers. Fails when any target
# finds an input; Go writes it to testdata/fuzz/<target>/ of the package,
# where it stays as a seed once fixed (for the targets of generated/, which
# holds only generated code, as a case of a test in gen/internal/integration
# or runtime/contract instead). The generated targets also count the
# inputs their oracle could not judge (TOOLGATE_FUZZ_SKIPLOG, see
# runtime/contract.Fuzz), printed after each target.
fuzz:
	@list=$$(mktemp); skips=$$(mktemp); failed=""; \
	$(GO) test -list '^Fuzz' ./... >$$list || { cat $$list; rm -f $$list $$skips; exit 1; }; \
	targets=$$(awk '/^Fuzz/ { t = t " " $$1 } /^ok / { n = split(t, a, " "); for (i = 1; i <= n; i++) print $$2 "," a[i]; t = "" }' $$list); \
	rm -f $$list; \
	[ -n "$$targets" ] || { echo "fuzz: no fuzz targets found"; rm -f $$skips; exit 1; }; \
	for pt in $$targets; do \
		pkg=$${pt%%,*}; target=$${pt#*,}; \
		echo "== $$target ($$pkg)"; \
		TOOLGATE_FUZZ_SKIPLOG=$$skips $(GO) test "$$pkg" -run '^$$' -fuzz "^$$target\$$" -fuzztime $(FUZZTIME) -parallel $(FUZZPARALLEL) \
			|| failed="$$failed $$target"; \
		n=$$(grep -c "^$$target	" $$skips); \
		[ "$$n" -eq 0 ] || { echo "$$target: the oracle could not judge $$n inputs:"; grep "^$$target	" $$skips | cut -f2 | sort | uniq -c; }; \
	done; \
	rm -f $$skips; \
	if [ -n "$$failed" ]; then echo "fuzz: findings in$$failed (inputs under testdata/fuzz/)"; exit 1; fi

# Dispatch overhead of the Redis replay store against the in-memory store,
# measured in the same run; prints the ratio of the mean ns/op.
bench-redis:
	cd runtime/redisreplay && $(GO) test -run '^$$' -bench Dispatch -benchmem -count $(BENCH_COUNT) . | tee ../../bench-redisreplay.txt | \
	awk '/^BenchmarkDispatch\/memory/ {m += $$3; nm++} /^BenchmarkDispatch\/redis/ {r += $$3; nr++} {print} \
	END {if (nm && nr) printf "redis/memory dispatch time: %.1fx (%.0f ns/op against %.0f ns/op)\n", (r/nr)/(m/nm), r/nr, m/nm}'
