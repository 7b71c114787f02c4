package lint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const identityTool = `{"name": "cancel_order", "description": "` + goodDesc + `", "parameters": {"type": "object", "additionalProperties": false,
  "properties": {"user_id": {"type": "string", "maxLength": 10, "description": "x"}, "role": {"type": "string", "maxLength": 10, "description": "x"}},
  "required": ["user_id", "role"]}%s}`

func TestToolFileAllows(t *testing.T) {
	tests := []struct {
		name  string
		allow string
		want  []string // trusted-identity findings left
		bad   bool     // a lint-config finding
	}{
		{"none", "", []string{p + "role", p + "user_id"}, false},
		{"one member", `, "x-toolgate-lint": {"disable": [{"rule": "trusted-identity", "at": "/parameters/properties/user_id", "reason": "the gateway overwrites it with the session's user"}]}`, []string{p + "role"}, false},
		{"whole tool", `, "x-toolgate-lint": {"disable": [{"rule": "trusted-identity", "reason": "an admin-only tool: roles are assigned by admins"}]}`, nil, false},
		{"no reason", `, "x-toolgate-lint": {"disable": [{"rule": "trusted-identity", "reason": "  "}]}`, []string{p + "role", p + "user_id"}, true},
		{"unknown rule", `, "x-toolgate-lint": {"disable": [{"rule": "no-such-rule", "reason": "x"}]}`, []string{p + "role", p + "user_id"}, true},
		{"tool member in a tool file", `, "x-toolgate-lint": {"disable": [{"rule": "trusted-identity", "tool": "x", "reason": "x"}]}`, []string{p + "role", p + "user_id"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := lintFiles(t, Options{}, strings.Replace(identityTool, "%s", tt.allow, 1))
			if got := at(res, RuleTrustedIdentity); strings.Join(got, ",") != strings.Join(tt.want, ",") {
				t.Errorf("trusted-identity at %q, want %q", got, tt.want)
			}
			if got := len(at(res, RuleConfig)) > 0; got != tt.bad {
				t.Errorf("lint-config finding: %v, want %v (%v)", got, tt.bad, res.Findings)
			}
			if n := res.Suppressed[RuleTrustedIdentity]; n != 2-len(tt.want) {
				t.Errorf("suppressed %d, want %d", n, 2-len(tt.want))
			}
		})
	}
}

func TestConfigFile(t *testing.T) {
	dir := t.TempDir()
	write := func(body string) string {
		path := filepath.Join(dir, "toolgate-lint.json")
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	cfg, err := LoadConfig(write(`{"disable": [
	  {"rule": "string-max-length", "tool": "get_order", "reason": "free text is bounded by the gateway"},
	  {"rule": "param-desc", "file": "*/t0.json", "at": "/parameters/properties/b", "reason": "self-explanatory"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	files := []string{
		tool("get_order", object(`"a": {"type": "string", "description": "x"}, "b": {"type": "integer"}, "c": {"type": "integer"}`, "a", "b", "c")),
		tool("list_orders", object(`"a": {"type": "string", "description": "x"}`, "a")),
	}
	res := lintFiles(t, Options{Config: cfg}, files...)
	var left []string
	for _, f := range res.Findings {
		if f.Rule == RuleStringMaxLength || f.Rule == RuleParamDesc {
			left = append(left, f.Tool+" "+f.Rule+" "+f.Pointer)
		}
	}
	want := "get_order param-desc /parameters/properties/c,list_orders string-max-length /parameters/properties/a"
	if strings.Join(left, ",") != want {
		t.Errorf("left %q, want %q", left, want)
	}
	if res.Suppressed[RuleStringMaxLength] != 1 || res.Suppressed[RuleParamDesc] != 1 {
		t.Errorf("suppressed %v", res.Suppressed)
	}

	for _, bad := range []struct{ body, want string }{
		{`{"disable": [{"rule": "param-desc", "tool": "x"}]}`, "needs a reason"},
		{`{"disable": [{"rule": "param-desc", "reason": "x"}]}`, "needs a tool or a file"},
		{`{"disable": [{"rule": "trusted-identity", "tool": "x", "reason": "x"}]}`, "needs a file (a path or a glob)"},
		{`{"disable": [{"rule": "trusted-identity", "file": "third_party/*.json"}]}`, "needs a reason"},
		{`{"disable": [{"rule": "nope", "tool": "x", "reason": "x"}]}`, `unknown rule "nope"`},
		{`{"disable": [{"rule": "param-desc", "tool": "x", "reason": "x", "at": "properties"}]}`, "JSON pointer"},
		{`{"disable": [{"rule": 1}]}`, "must be a string"},
		{`{"rules": {}}`, `unknown member "rules"`},
		{`[]`, "JSON object"},
		{`{"disable": []`, "invalid JSON"},
	} {
		_, err := LoadConfig(write(bad.body))
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("LoadConfig(%s) = %v, want an error with %q", bad.body, err, bad.want)
		}
	}
	if _, err := LoadConfig(filepath.Join(dir, "missing.json")); err == nil || !os.IsNotExist(err) {
		t.Errorf("a missing file: %v", err)
	}
}

// TestConfigDisablesTrustedIdentityForFiles: a config disables
// trusted-identity for the files a glob names (third-party tool lists a
// team does not own), with a reason; the same tool in another file is
// still flagged.
func TestConfigDisablesTrustedIdentityForFiles(t *testing.T) {
	path := filepath.Join(t.TempDir(), "toolgate-lint.json")
	body := `{"disable": [{"rule": "trusted-identity", "file": "*/t1.json", "reason": "a vendor's captured tools/list: the gateway sets the caller"}]}`
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	body = strings.Replace(identityTool, "%s", "", 1)
	res := lintFiles(t, Options{Config: cfg}, body, strings.Replace(body, "cancel_order", "refund_order", 1))
	var left []string
	for _, f := range res.Findings {
		if f.Rule == RuleTrustedIdentity {
			left = append(left, filepath.Base(f.File)+" "+f.Pointer)
		}
	}
	want := "t0.json " + p + "user_id,t0.json " + p + "role"
	if strings.Join(left, ",") != want {
		t.Errorf("trusted-identity left %q, want %q", left, want)
	}
	if n := res.Suppressed[RuleTrustedIdentity]; n != 2 {
		t.Errorf("suppressed %d trusted-identity findings, want 2 (those of t1.json)", n)
	}
}
