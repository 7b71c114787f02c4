# toolgate's tasks. `make test` is what CI runs (.ci/run).
GO ?= go
BENCH_COUNT ?= 10
FUZZTIME ?= 10s
FUZZPARALLEL ?= 1

.PHONY: all generate check lint calls conformance test vet fmt-check unit examples-test bench fuzz

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

# Everything CI checks: vet, gofmt, unit and conformance tests of both
# modules, the lint of schemas/, the recorded calls and the drift check.
test: vet fmt-check unit examples-test lint calls check

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

# Benchmarks of the generated decoders against json.Valid and the two-pass
# path; compare runs with benchstat (go run golang.org/x/perf/cmd/benchstat).
bench:
	$(GO) test ./generated -run '^$$' -bench . -benchmem -count $(BENCH_COUNT) | tee bench-generated.txt

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
