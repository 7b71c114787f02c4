# toolgate's tasks. `make test` is what CI runs (.ci/run).
GO ?= go
BENCH_COUNT ?= 10
FUZZTIME ?= 10s
FUZZPARALLEL ?= 1

.PHONY: all generate check lint calls conformance test vet fmt-check unit examples-test integrations-test bench bench-gate bench-redis fuzz

# Integrations: each is its own Go module (its dependencies never enter the
# core module's go.mod), so the root's ./... skips them; they are vetted
# and tested one by one. The Redis tests need redis-server on PATH (they
# start their own servers on loopback ports); .ci/run installs it.
INTEGRATIONS := runtime/redisreplay runtime/otelgate runtime/mcpgate

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
# schemas/, the recorded calls and the drift check.
test: vet fmt-check unit examples-test integrations-test lint calls check

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

unit:
	$(GO) test ./...

examples-test:
	cd examples && $(GO) vet ./... && $(GO) test ./...

integrations-test:
	@set -e; for m in $(INTEGRATIONS); do \
		echo "== $$m"; (cd $$m && $(GO) vet ./... && $(GO) test ./...); \
	done

# The side-by-side decode table (README "Performance"): the decoders of the
# schemas in $(SHARED_BENCH), each wrapped as a tool file and generated into
# generated/internal/benchside/testdata/shared (not committed), and of the demo tools,
# against encoding/json.Valid, the strict reader's skip, jsonschema two-pass
# and encoding/json strict, as medians of per-round ratios of $(BENCH_ROUNDS)
# interleaved rounds. Then the go test benchmarks of generated/; compare two
# such runs with `go run golang.org/x/perf/cmd/benchstat@latest OLD NEW`.
SHARED_BENCH ?= ../shared/bench
BENCH_ROUNDS ?= 10
BENCH_TOOLS := $(or $(TMPDIR),/tmp)/toolgate-bench-tools

bench:
	@test -d $(SHARED_BENCH) || { echo "bench: $(SHARED_BENCH) is missing"; exit 1; }
	rm -rf $(BENCH_TOOLS) && mkdir -p $(BENCH_TOOLS)
	for f in $(SHARED_BENCH)/*.schema.json; do \
		t=$$(basename $$f .schema.json); \
		printf '{"name":"%s","description":"Benchmark tool %s, the shared benchmark schema; use it only to measure decoders. Returns nothing.","parameters":%s}' \
			$$t $$t "$$(cat $$f)" > $(BENCH_TOOLS)/$$t.json || exit 1; \
	done
	$(GO) run ./cmd/toolgate generate --schemas $(BENCH_TOOLS) --out generated/internal/benchside/testdata/shared --package shared
	$(GO) run ./generated/internal/benchside/testdata/sidebyside -shared $(SHARED_BENCH) -rounds $(BENCH_ROUNDS) > bench-sidebyside.txt; \
		status=$$?; cat bench-sidebyside.txt; exit $$status
	$(GO) test ./generated -run '^$$' -bench . -benchmem -count $(BENCH_COUNT) | tee bench-generated.txt

# The gate's cost beyond the bare decoder (generated BenchmarkDispatch):
# the decoder and the dispatch variants interleave in one run; prints each
# variant's median ns/op and its ratio to the decoder's median.
bench-gate:
	$(GO) test ./generated -run '^$$' -bench '^BenchmarkDispatch$$' -benchmem -count $(BENCH_COUNT) | tee bench-gate.txt | \
	awk '/^BenchmarkDispatch\// {split($$1, f, "/"); v = f[3]; sub(/-[0-9]+$$/, "", v); if (!(v in n)) order[++k] = v; x[v, ++n[v]] = $$3} {print} \
	function median(v,  i, j, t, a) {for (i = 1; i <= n[v]; i++) {a[i] = x[v, i]; for (j = i; j > 1 && a[j-1] > a[j]; j--) {t = a[j]; a[j] = a[j-1]; a[j-1] = t}} \
		return n[v] % 2 ? a[(n[v]+1)/2] : (a[n[v]/2] + a[n[v]/2+1]) / 2} \
	END {d = median("decode"); for (i = 1; i <= k; i++) printf "%-16s %8.0f ns/op  %5.2fx decode\n", order[i], median(order[i]), median(order[i]) / d}'

# Every fuzz target of the core module (go test -list '^Fuzz'), one at a
# time, for FUZZTIME each with FUZZPARALLEL workers. Fails when any target
# finds an input; Go writes it to testdata/fuzz/<target>/ of the package,
# where it stays as a seed once fixed. The generated targets also count the
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
