package lint

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"
)

func TestFileURI(t *testing.T) {
	for _, c := range []struct{ file, want string }{
		{"schemas/a.json", "schemas/a.json"},
		{"plan #2.json", "plan%20%232.json"},
		{"dir/what?.json", "dir/what%3F.json"},
		{"a:b.json", "a%3Ab.json"},
		{"100%.json", "100%25.json"},
		{"naïve.json", "na%C3%AFve.json"},
		{"line\nbreak.json", "line%0Abreak.json"},
		{"~user/a-b_c.json", "~user/a-b_c.json"},
		{"/abs/x y.json", "file:///abs/x%20y.json"},
	} {
		if got := fileURI(filepath.FromSlash(c.file)); got != c.want {
			t.Errorf("fileURI(%q) = %q, want %q", c.file, got, c.want)
		}
	}
}

// TestSARIFDriverAndURI: the log names the version it is given and
// locates a finding in a file named "plan #2.json" by its encoded URI.
func TestSARIFDriverAndURI(t *testing.T) {
	res := &Result{Findings: []Finding{{Rule: RuleFormatUnknown, Severity: Warning, File: "plan #2.json", Message: "m"}}}
	var b bytes.Buffer
	if err := WriteSARIF(&b, res, "v0.4.1"); err != nil {
		t.Fatal(err)
	}
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct{ Name, Version string }
			}
			Results []struct {
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
					}
				}
			}
		}
	}
	if err := json.Unmarshal(b.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	if len(log.Runs) != 1 || log.Runs[0].Tool.Driver.Version != "v0.4.1" || len(log.Runs[0].Results) != 1 {
		t.Fatalf("log %s", b.String())
	}
	if uri := log.Runs[0].Results[0].Locations[0].PhysicalLocation.ArtifactLocation.URI; uri != "plan%20%232.json" {
		t.Errorf("uri %q, want plan%%20%%232.json", uri)
	}
}
