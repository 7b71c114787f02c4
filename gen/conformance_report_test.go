package gen_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

type fileCounts struct {
	casesRun, casesSkipped         int
	passed, failed, known, skipped int
}

// report compares every verdict with the suite and prints the summary.
func (h *harness) report(files []suiteFile) {
	t := h.t
	counts := map[string]*fileCounts{}
	var total fileCounts
	for _, c := range h.cases {
		fc := counts[c.file.rel]
		if fc == nil {
			fc = &fileCounts{}
			counts[c.file.rel] = fc
		}
		caseKey := c.file.run + "|" + c.file.rel + "|" + c.Description
		switch {
		case c.genErr != nil && c.skipKey != "":
			fc.casesSkipped++
			fc.skipped += len(c.Tests)
			continue
		case c.genErr != nil || c.broken != "":
			fc.casesSkipped++
			fc.skipped += len(c.Tests)
			why := c.broken
			if why == "" {
				why = "the generator refuses a case that is not in conformanceSkips:\n" + c.genErr.Error()
			}
			if reason, ok := knownBugs[caseKey]; ok {
				h.usedBug[caseKey] = true
				fc.known += len(c.Tests)
				fc.skipped -= len(c.Tests)
				t.Logf("known bug (%s): %s: %s", reason, c.file.rel, c.Description)
				continue
			}
			t.Errorf("%s: case %q (schema %s): %s", c.file.rel, c.Description, compact(c.Schema), why)
			continue
		}
		fc.casesRun++
		caseReason, caseKnown := knownBugs[caseKey]
		failedHere := 0
		for ti, tc := range c.Tests {
			key := caseKey + "|" + tc.Description
			res := c.results[ti]
			verdict, msg, _ := strings.Cut(res, "\t")
			want := "invalid"
			if tc.Valid {
				want = "valid"
			}
			reason, isKnown := knownBugs[key]
			if isKnown {
				h.usedBug[key] = true
			} else if caseKnown {
				reason, isKnown = caseReason, true
			}
			switch {
			case res == "":
				verdict = "no verdict (the program stopped early?)"
			case verdict == want:
				fc.passed++
				if _, ok := knownBugs[key]; ok {
					t.Errorf("knownBugs entry %q: the test passes now: remove the entry", key)
				}
				continue
			}
			failedHere++
			if isKnown {
				fc.known++
				t.Logf("known bug (%s): %s | %s | %s: data %s: want %s, got %s %s", reason, c.file.rel, c.Description, tc.Description, compact(tc.Data), want, verdict, msg)
				continue
			}
			fc.failed++
			detail := ""
			if c.skipKey != "" {
				detail = fmt.Sprintf(" [listed in conformanceSkips (%s), but the generator accepted the schema: a keyword is silently dropped]", c.skip)
			}
			t.Errorf("MISMATCH %s run | %s | %s | %s%s\n  schema: %s\n  data:   %s\n  want %s, got %s %s", c.file.run, c.file.rel, c.Description, tc.Description, detail, compact(c.Schema), compact(tc.Data), want, verdict, msg)
		}
		if caseKnown {
			h.usedBug[caseKey] = true
			if failedHere == 0 {
				t.Errorf("knownBugs entry %q: the case generates, compiles and passes now: remove the entry", caseKey)
			}
		}
		if c.skipKey != "" && failedHere == 0 {
			t.Errorf("conformanceSkips entry %q (%s): the generator accepts the case and it passes every test: remove the entry", c.skipKey, c.skip)
		}
	}
	for k := range knownBugs {
		if !h.usedBug[k] {
			t.Errorf("knownBugs entry %q matches no case or test: remove it", k)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n%-40s %6s %9s %9s %7s %7s %7s %7s\n", "file", "tests", "cases run", "skipped", "passed", "failed", "known", "skipped")
	drafts := map[string]*fileCounts{}
	for _, f := range files {
		fc := counts[f.rel]
		if fc == nil {
			fc = &fileCounts{}
		}
		tests := fc.passed + fc.failed + fc.known + fc.skipped
		fmt.Fprintf(&b, "%-40s %6d %9d %9d %7d %7d %7d %7d\n", f.rel, tests, fc.casesRun, fc.casesSkipped, fc.passed, fc.failed, fc.known, fc.skipped)
		for _, sum := range []*fileCounts{&total, draftCounts(drafts, f.rel)} {
			sum.casesRun += fc.casesRun
			sum.casesSkipped += fc.casesSkipped
			sum.passed += fc.passed
			sum.failed += fc.failed
			sum.known += fc.known
			sum.skipped += fc.skipped
		}
	}
	fmt.Fprintf(&b, "%-40s %6d %9d %9d %7d %7d %7d %7d\n", "total", total.passed+total.failed+total.known+total.skipped, total.casesRun, total.casesSkipped, total.passed, total.failed, total.known, total.skipped)
	for _, name := range []string{"draft2020-12", "draft-07", "toolgate"} {
		if dc := drafts[name]; dc != nil {
			fmt.Fprintf(&b, "%s: %d of %d tests pass, %d fail, %d skipped\n", name, dc.passed, dc.passed+dc.failed+dc.known+dc.skipped, dc.failed+dc.known, dc.skipped)
		}
	}
	b.WriteString("skipped cases (each refused at generation):\n")
	for _, c := range h.cases {
		if c.genErr != nil && c.skipKey != "" {
			fmt.Fprintf(&b, "  %s | %s (%d tests): %s\n", c.file.rel, c.Description, len(c.Tests), c.skip)
		}
	}
	t.Log(b.String())
}

// draftCounts returns the sum of the draft that a suite file belongs to.
func draftCounts(drafts map[string]*fileCounts, rel string) *fileCounts {
	name := "draft2020-12"
	switch {
	case strings.HasPrefix(rel, "draft7/"):
		name = "draft-07"
	case strings.HasPrefix(rel, "testdata/"):
		name = "toolgate"
	}
	if drafts[name] == nil {
		drafts[name] = &fileCounts{}
	}
	return drafts[name]
}

func compact(raw []byte) string {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return string(raw)
	}
	s := b.String()
	if len(s) > 300 {
		s = s[:300] + "..."
	}
	return s
}
