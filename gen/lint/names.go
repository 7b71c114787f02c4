package lint

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"
)

// words splits a name into lower-case words at separators and camelCase
// boundaries: "amountInCents" and "amount_in_cents" are [amount in cents].
func words(s string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(s)
	for i, r := range rs {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
			continue
		case unicode.IsUpper(r) && len(cur) > 0:
			prevLower := unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1])
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if prevLower || (unicode.IsUpper(rs[i-1]) && nextLower) {
				flush()
			}
		}
		cur = append(cur, r)
	}
	flush()
	return out
}

func snake(ws []string) string { return strings.Join(ws, "_") }

func set(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

var (
	verbs = set(`get list search find fetch read lookup query check count describe show view validate preview estimate
		calculate compute create add insert update set edit modify patch put replace upsert delete remove cancel
		refund schedule reschedule send post publish submit approve reject assign unassign book reserve register
		subscribe unsubscribe enable disable archive unarchive restore reset start stop pause resume open close
		move copy rename upload download import export sync merge fork push pull install uninstall navigate click
		type select fill wait resize press hover drag evaluate take capture generate convert translate summarize
		analyze transfer pay charge issue void ship dispatch track notify email message reply comment tag label
		lock unlock grant revoke invite join leave retry apply revert deploy build test lint format scan inspect
		log record save load write clear mark complete confirm verify sign attach detach link unlink connect
		disconnect activate deactivate suspend unsuspend dismiss resolve unresolve prioritize reprioritize
		star unstar migrate request rotate renew expire run execute handle process manage do perform`)
	readVerbs = set(`get list search find fetch read lookup query check count describe show view validate preview
		estimate calculate compute`)
	vagueVerbs   = set(`handle process manage do perform deal operate action invoke execute run`)
	conjunctions = set(`and or then plus`)
	snakeRE      = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)
)

// toolName checks the tool's name for one operation, verb_noun.
func (c *checker) toolName() {
	name := c.ti.t.Name
	at := c.ti.t.Pointer + "/name"
	ws := words(name)
	switch {
	case !snakeRE.MatchString(name):
		c.add(RuleNameVerbNoun, at, "%q is not snake_case: write %s", name, snake(ws))
	case len(ws) < 2:
		c.add(RuleNameVerbNoun, at, "%q is one word: name the action and its object, verb_noun", name)
	case vagueVerbs[ws[0]]:
		c.add(RuleNameVerbNoun, at, "%q starts with the vague verb %q: which action? (get, create, cancel, refund…)", name, ws[0])
	case slices.ContainsFunc(ws, func(w string) bool { return conjunctions[w] }):
		c.add(RuleNameVerbNoun, at, "%q names more than one operation: one tool per action", name)
	case !verbs[ws[0]] && !(len(ws) > 2 && verbs[ws[1]]):
		c.add(RuleNameVerbNoun, at, "%q does not start with a verb (optionally after one namespace word): verb_noun, such as get_%s", name, snake(ws[1:]))
	}
}

var (
	moneyWords    = set(`amount price cost fee fees total balance charge payment salary refund tax subtotal discount tip wage revenue budget`)
	durationWords = set(`timeout duration delay interval ttl wait elapsed expiry expiration lifetime retention backoff latency period age`)
	sizeWords     = set(`size bytes memory disk capacity quota filesize`)
	unitWords     = set(`cents cent pence penny minor micros millis ms ns msec msecs sec secs seconds second minutes minute mins hours hour hrs days day weeks months years
		bytes byte kb mb gb tb kib mib gib tib kilobytes megabytes gigabytes units unit percent pct bps basis points tokens chars characters pixels px`)
	unitExamples = map[string]string{"money": "amount_pence, price_cents", "a duration": "timeout_ms, delay_seconds", "a size": "size_bytes, limit_mib"}
	dateWords    = set(`date datetime timestamp time deadline birthday dob since until`)
)

// measure reports what a numeric name looks like ("money", "a duration",
// "a size", or "") and whether it names a unit.
func measure(ws []string) (kind string, unit bool) {
	for _, w := range ws {
		switch {
		case unitWords[w]:
			unit = true
		case kind != "":
		case moneyWords[w]:
			kind = "money"
		case durationWords[w]:
			kind = "a duration"
		case sizeWords[w]:
			kind = "a size"
		}
	}
	return kind, unit
}

func isMoney(ws []string) bool {
	k, _ := measure(ws)
	return k == "money"
}

// looksLikeDate reports names such as due_date, createdAt, expires_on,
// start_time.
func looksLikeDate(ws []string) bool {
	if len(ws) == 0 {
		return false
	}
	last := ws[len(ws)-1]
	if dateWords[last] || (len(ws) > 1 && (last == "at" || last == "on")) {
		return true
	}
	return slices.ContainsFunc(ws, func(w string) bool { return w == "date" || w == "timestamp" || w == "datetime" })
}

// homoglyphs maps look-alike runes to one representative.
var homoglyphs = map[rune]rune{
	'0': 'o', 'о': 'o', 'ο': 'o', 'О': 'o', '1': 'l', 'i': 'l', 'I': 'l', '|': 'l', 'і': 'l', 'ӏ': 'l',
	'а': 'a', 'α': 'a', 'е': 'e', 'ε': 'e', 'р': 'p', 'ρ': 'p', 'с': 'c', 'х': 'x', 'у': 'y', 'ј': 'j',
	'ѕ': 's', 'ν': 'v', '5': 's', 'к': 'k', 'м': 'm', 'т': 't', 'н': 'h', 'в': 'b',
}

// skeleton folds case, separators and homoglyphs: two names with one
// skeleton read alike.
func skeleton(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r == '_' || r == '-' || r == '.' || r == ' ' {
			continue
		}
		if h, ok := homoglyphs[r]; ok {
			r = h
		}
		b.WriteRune(r)
	}
	out := strings.ReplaceAll(b.String(), "rn", "m")
	return strings.ReplaceAll(out, "vv", "w")
}

// editDistance1 reports whether a and b differ by exactly one insertion,
// deletion or substitution.
func editDistance1(a, b string) bool {
	return runesDistance1([]rune(a), []rune(b))
}

// runesDistance1 is editDistance1 of decoded strings.
func runesDistance1(ra, rb []rune) bool {
	if len(ra) < len(rb) {
		ra, rb = rb, ra
	}
	switch len(ra) - len(rb) {
	case 0:
		diff := 0
		for i := range ra {
			if ra[i] != rb[i] {
				diff++
			}
		}
		return diff == 1
	case 1:
		i := 0
		for i < len(rb) && ra[i] == rb[i] {
			i++
		}
		return string(ra[i+1:]) == string(rb[i:])
	}
	return false
}

// confusableTools compares the tool names that can be confusable or one
// edit apart; a finding is reported on the later tool. Each name is folded
// once, and compared only with the earlier names that share its skeleton or
// one of its deletion keys (the name, and the name less one rune): two
// names one edit apart always share one (the shorter name itself, or both
// less the rune where they differ), so no pair that either rule flags is
// missed, and the pairs are not quadratic. Below min, name-near does not
// run, and only the skeletons are compared.
func confusableTools(infos []*toolInfo, min Severity) []Finding {
	near := severity(RuleNameNear) >= min
	skel := make([]string, len(infos))
	lower := make([][]rune, len(infos))
	for i, ti := range infos {
		skel[i] = skeleton(ti.t.Name)
		lower[i] = []rune(strings.ToLower(ti.t.Name))
	}
	bySkel := map[string][]int{}
	byKey := map[string][]int{}
	var out []Finding
	var cands []int
	for j, b := range infos {
		var keys []string
		if near {
			keys = deletionKeys(lower[j])
		}
		cands = append(cands[:0], bySkel[skel[j]]...)
		for _, k := range keys {
			cands = append(cands, byKey[k]...)
		}
		slices.Sort(cands)
		for _, i := range slices.Compact(cands) {
			a := infos[i]
			rule, msg := "", ""
			switch {
			case skel[i] == skel[j]:
				rule, msg = RuleNameConfusable, "reads like %q (%s): folding case, separators and look-alike characters makes them one name"
			case near && runesDistance1(lower[i], lower[j]):
				rule, msg = RuleNameNear, "is one edit from %q (%s): a model can pick the wrong one"
			default:
				continue
			}
			out = append(out, Finding{Rule: rule, Severity: severity(rule), Tool: b.t.Name, File: b.t.File, Pointer: b.t.Pointer + "/name",
				Message: fmt.Sprintf("tool name %q "+msg, b.t.Name, a.t.Name, a.t.File)})
		}
		bySkel[skel[j]] = append(bySkel[skel[j]], j)
		for _, k := range keys {
			byKey[k] = append(byKey[k], j)
		}
	}
	return out
}

// deletionKeys are r and r less each of its runes, distinct.
func deletionKeys(r []rune) []string {
	keys := []string{string(r)}
	for k := range r {
		if k > 0 && r[k] == r[k-1] {
			continue // the same key as deleting r[k-1]
		}
		keys = append(keys, string(r[:k])+string(r[k+1:]))
	}
	return keys
}
