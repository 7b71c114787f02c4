package gen

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/toolgate/toolgate/runtime/schema"
)

// suggest returns the one name of known that word is most likely a
// misspelling of, or "" when none is close or two are equally close. Names
// are compared ignoring case, by Damerau-Levenshtein distance (optimal
// string alignment: a swap of two neighbours is one edit): a name equal
// but for case is the closest there is, and otherwise it must be within
// one edit of a word of up to four characters, two of a longer one. The
// words compared are short (keywords, member names): a longer word than
// maxSuggestWord is never looked up, which bounds the work.
func suggest(word string, known []string) string {
	w := []rune(strings.ToLower(word))
	if len(w) == 0 || len(w) > maxSuggestWord {
		return ""
	}
	limit := 2
	if len(w) <= 4 {
		limit = 1
	}
	best, bestDist, ties := "", limit+1, 0
	for _, k := range known {
		if k == word {
			return ""
		}
		d := editDistance(w, []rune(strings.ToLower(k)))
		switch {
		case d < bestDist:
			best, bestDist, ties = k, d, 1
		case d == bestDist:
			ties++
		}
	}
	if ties != 1 {
		return ""
	}
	return best
}

// maxSuggestWord is the longest word, in runes, suggest looks up.
const maxSuggestWord = 64

// editDistance is the optimal string alignment distance of a and b:
// insertions, deletions, substitutions and swaps of neighbours.
func editDistance(a, b []rune) int {
	if len(b) > maxSuggestWord {
		return maxSuggestWord
	}
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// didYouMean is the end of a message about the unknown name word: "; did
// you mean "x"?" when suggest finds one name of known, else "".
func didYouMean(word string, known []string) string {
	if s := suggest(word, known); s != "" {
		return fmt.Sprintf("; did you mean %q?", s)
	}
	return ""
}

// schemaKeywords are the keywords toolgate knows (the rows of
// schema.Keywords), in order: those it enforces or reads as annotations,
// and every keyword of JSON Schema 2020-12 and draft-07 that it refuses. A member of a schema that is none
// of them (nor an x- extension) is a misspelling or a stranger.
var schemaKeywords = sync.OnceValue(func() []string {
	var names []string
	for _, k := range schema.Keywords() {
		names = append(names, k.Name)
	}
	return slices.Sorted(slices.Values(names))
})

// toolMembers are the members of a tool object toolgate reads (x-
// extensions aside).
var toolMembers = []string{"name", "description", "parameters", "inputSchema", "title", "annotations", "outputSchema", "_meta", "icons", "execution"}

// metaMembers are the members of a tool's x-toolgate.
var metaMembers = []string{"goName", "version", "roles", "sensitive", "destructive", "timeout", "providers", "approval", "approvers", "selfApproval"}

// schemaMetaMembers are the members of a schema's x-toolgate.
var schemaMetaMembers = []string{"goName", "goType", "sensitive"}

// listMembers are the members of a tool list besides x- extensions.
var listMembers = []string{"tools", "nextCursor", "_meta", "serverInfo", "server_info", "server", "url", "transport", "auth"}
