package lint

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/toolgate/toolgate/runtime/jsonval"
)

// Suppression disables one rule, with the reason written down.
type Suppression struct {
	Rule string
	// Tool and File narrow it to a tool name and to a file (a path or a
	// glob); empty means any. A tool file's own x-toolgate-lint entries
	// have neither.
	Tool, File string
	// At narrows it to a JSON pointer inside the tool (such as
	// "/parameters/properties/user_id") and everything under it.
	At     string
	Reason string
}

// Config is a lint configuration file:
//
//	{"disable": [{"rule": "money-integer", "tool": "create_shipment",
//	  "at": "/parameters/properties/insured_value",
//	  "reason": "the carrier's API takes a decimal amount"}]}
//
// Every entry needs a rule and a reason, and a tool or a file: a rule is
// disabled for named tools or files, never everywhere. trusted-identity
// needs a file (a path or a glob): a config disables it for files a team
// does not own, such as captured third-party tool lists; in its own files
// the tool file's x-toolgate-lint says why.
type Config struct {
	Disable []Suppression
}

// allows reports whether c disables f, a finding about the tool at toolPtr.
func (c Config) allows(f Finding, toolPtr string) bool {
	for _, s := range c.Disable {
		if s.Rule != f.Rule || (s.Tool != "" && s.Tool != f.Tool) || (s.File != "" && !matchFile(s.File, f.File)) {
			continue
		}
		if s.At == "" || within(f.Pointer, toolPtr+s.At) {
			return true
		}
	}
	return false
}

// ConfigError is an invalid configuration file.
type ConfigError struct {
	File    string
	Pointer string
	Message string
}

func (e *ConfigError) Error() string { return e.File + "#" + e.Pointer + ": " + e.Message }

// LoadConfig reads a configuration file.
func LoadConfig(path string) (Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Config{}, err
	}
	doc, err := jsonval.Parse(data)
	if err != nil {
		return Config{}, &ConfigError{File: path, Message: err.Error()}
	}
	if doc.Kind != jsonval.Object {
		return Config{}, &ConfigError{File: path, Message: "a lint config is a JSON object with a disable array"}
	}
	var cfg Config
	for _, m := range doc.Members {
		if m.Key != "disable" {
			return Config{}, &ConfigError{File: path, Pointer: "/" + jsonval.EscapeToken(m.Key), Message: fmt.Sprintf("unknown member %q (want disable)", m.Key)}
		}
		var problems []configProblem
		cfg.Disable, problems = parseSuppressions(doc, false)
		if len(problems) > 0 {
			return Config{}, &ConfigError{File: path, Pointer: problems[0].ptr, Message: problems[0].msg}
		}
	}
	return cfg, nil
}

type configProblem struct{ ptr, msg string }

// parseSuppressions reads {"disable": [...]}; inTool entries (a tool file's
// x-toolgate-lint) take no tool or file.
func parseSuppressions(v *jsonval.Value, inTool bool) ([]Suppression, []configProblem) {
	var out []Suppression
	var problems []configProblem
	fail := func(ptr, format string, args ...any) {
		problems = append(problems, configProblem{ptr, fmt.Sprintf(format, args...)})
	}
	if v.Kind != jsonval.Object {
		fail("", "want an object with a disable array")
		return nil, problems
	}
	list := v.Get("disable")
	if list == nil || list.Kind != jsonval.Array || len(v.Members) != 1 {
		fail("", "want exactly one member, disable: an array of {rule, reason, at} entries")
		return nil, problems
	}
	keys := "rule, reason, tool, file and at"
	if inTool {
		keys = "rule, reason and at"
	}
	for i, it := range list.Items {
		at := "/disable/" + strconv.Itoa(i)
		if it.Kind != jsonval.Object {
			fail(at, "an entry is an object with %s", keys)
			continue
		}
		var s Suppression
		ok := true
		for _, m := range it.Members {
			if m.Value.Kind != jsonval.String {
				fail(at+"/"+jsonval.EscapeToken(m.Key), "%s must be a string", m.Key)
				ok = false
				continue
			}
			switch m.Key {
			case "rule":
				s.Rule = m.Value.Str
			case "reason":
				s.Reason = strings.TrimSpace(m.Value.Str)
			case "at":
				s.At = m.Value.Str
			case "tool", "file":
				if inTool {
					fail(at+"/"+m.Key, "a tool file's entry applies to its tool; %s is not allowed here", m.Key)
					ok = false
				}
				if m.Key == "tool" {
					s.Tool = m.Value.Str
				} else {
					s.File = m.Value.Str
				}
			default:
				fail(at+"/"+jsonval.EscapeToken(m.Key), "unknown member %q (want %s)", m.Key, keys)
				ok = false
			}
		}
		switch {
		case !ok:
		case RuleByID(s.Rule) == nil:
			fail(at+"/rule", "unknown rule %q", s.Rule)
		case s.Reason == "":
			fail(at, "disabling %s needs a reason", s.Rule)
		case !inTool && s.Rule == RuleTrustedIdentity && s.File == "":
			fail(at+"/file", "disabling %s in a config needs a file (a path or a glob) naming the files a team does not own; in its own files, disable it in the tool file's x-toolgate-lint, so that the reason travels with the tool", s.Rule)
		case !inTool && s.Tool == "" && s.File == "":
			fail(at, "disabling %s needs a tool or a file: rules are not disabled everywhere", s.Rule)
		case s.At != "" && !strings.HasPrefix(s.At, "/"):
			fail(at+"/at", "at must be a JSON pointer inside the tool, such as /parameters/properties/user_id")
		default:
			out = append(out, s)
		}
	}
	return out, problems
}
