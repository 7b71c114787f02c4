package lint

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/gen"
)

// confusableAllPairs is confusableTools as it was: every pair compared. It
// is the reference the indexed version must agree with.
func confusableAllPairs(infos []*toolInfo) []Finding {
	var out []Finding
	for j, b := range infos {
		for _, a := range infos[:j] {
			rule, msg := "", ""
			la, lb := []rune(strings.ToLower(a.t.Name)), []rune(strings.ToLower(b.t.Name))
			switch {
			case skeleton(a.t.Name) == skeleton(b.t.Name):
				rule, msg = RuleNameConfusable, "reads like %q (%s): folding case, separators and look-alike characters makes them one name"
			case runesDistance1(la, lb):
				rule, msg = RuleNameNear, "is one edit from %q (%s): a model can pick the wrong one"
			default:
				continue
			}
			out = append(out, Finding{Rule: rule, Severity: severity(rule), Tool: b.t.Name, File: b.t.File, Pointer: b.t.Pointer + "/name",
				Message: fmt.Sprintf("tool name %q "+msg, b.t.Name, a.t.Name, a.t.File)})
		}
	}
	return out
}

// TestConfusableToolsMatchesAllPairs: on sets of names drawn from a small
// alphabet (with separators, case and look-alike digits, so that many are
// one edit apart or fold to one skeleton), the indexed comparison finds
// exactly what comparing every pair finds, in the same order.
func TestConfusableToolsMatchesAllPairs(t *testing.T) {
	const alphabet = "abAB_-.01lIoO"
	r := rand.New(rand.NewPCG(1, 2))
	total := 0
	for round := range 500 {
		seen := map[string]bool{}
		var infos []*toolInfo
		for len(infos) < 2+r.IntN(80) {
			n := 1 + r.IntN(5)
			var b strings.Builder
			for range n {
				b.WriteByte(alphabet[r.IntN(len(alphabet))])
			}
			if seen[b.String()] {
				continue
			}
			seen[b.String()] = true
			infos = append(infos, &toolInfo{t: &gen.Tool{Name: b.String(), File: fmt.Sprintf("t%d.json", len(infos))}})
		}
		got, want := confusableTools(infos, Hint), confusableAllPairs(infos)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("round %d: %d findings, all pairs give %d:\n%v\n%v", round, len(got), len(want), got, want)
		}
		total += len(want)
	}
	if total < 2000 {
		t.Fatalf("only %d findings in all rounds: the names are too far apart to test anything", total)
	}
}

// BenchmarkConfusableTools5000 compares the names of 5,000 synthetic-like
// tools.
func BenchmarkConfusableTools5000(b *testing.B) {
	verbs := []string{"create", "update", "get", "list", "cancel", "archive", "approve", "assign", "schedule", "export"}
	nouns := []string{"invoice", "ticket", "booking", "account", "shipment", "report", "contract", "payment", "device", "listing"}
	infos := make([]*toolInfo, 5000)
	for i := range infos {
		infos[i] = &toolInfo{t: &gen.Tool{Name: fmt.Sprintf("%s_%s_%d", verbs[i%10], nouns[i/10%10], i), File: "f.json"}}
	}
	for b.Loop() {
		confusableTools(infos, Hint)
	}
}
