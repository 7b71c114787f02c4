package gen_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/toolgate/toolgate/gen"
	"github.com/toolgate/toolgate/gen/internal/gobuild"
	"github.com/toolgate/toolgate/runtime/provider"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// TestGolden runs the generator on each archive in testdata/golden. An
// archive holds the input tool files under schemas/, an optional "options"
// file (one option a line: open-objects, package NAME, providers P...), and the expected
// output: every generated file under out/, or the expected error text in a
// file named "error", the notices of providers left out in a file named
// "notices", and the generator's warnings in one named "warnings". With
// -update the expectations are rewritten. Every generated package must pass
// go vet and, unless -short, the seed corpus of its fuzz targets.
func TestGolden(t *testing.T) {
	archives, err := filepath.Glob("testdata/golden/*.txtar")
	if err != nil || len(archives) == 0 {
		t.Fatalf("no golden archives: %v", err)
	}
	compiled := map[string]map[string][]byte{} // package folder → files
	for _, path := range archives {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			opts := gen.Options{Package: "tools", OutDir: filepath.Join(dir, "out")}
			var inputs []txtar.File
			for _, f := range ar.Files {
				switch {
				case strings.HasPrefix(f.Name, "schemas/"):
					inputs = append(inputs, f)
					p := filepath.Join(dir, f.Name)
					if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(p, f.Data, 0o644); err != nil {
						t.Fatal(err)
					}
				case f.Name == "options":
					inputs = append(inputs, f)
					for _, line := range strings.Split(strings.TrimSpace(string(f.Data)), "\n") {
						switch fields := strings.Fields(line); {
						case len(fields) == 1 && fields[0] == "open-objects":
							opts.OpenObjects = true
						case len(fields) == 2 && fields[0] == "package":
							opts.Package = fields[1]
						case len(fields) >= 2 && fields[0] == "providers":
							for _, p := range fields[1:] {
								opts.Providers = append(opts.Providers, provider.Provider(p))
							}
						default:
							t.Fatalf("unknown option %q", line)
						}
					}
				}
			}
			got := []txtar.File{}
			tools, err := gen.Load(filepath.Join(dir, "schemas"))
			var files []gen.File
			var notices, warnings strings.Builder
			opts.Notice = func(n gen.Notice) {
				notices.WriteString(strings.ReplaceAll(n.String(), dir+string(filepath.Separator), "") + "\n")
			}
			opts.Warn = func(w gen.Warning) {
				warnings.WriteString(strings.ReplaceAll(w.String(), dir+string(filepath.Separator), "") + "\n")
			}
			if err == nil {
				files, err = gen.Generate(tools, opts)
			}
			if notices.Len() > 0 {
				got = append(got, txtar.File{Name: "notices", Data: []byte(notices.String())})
			}
			if warnings.Len() > 0 {
				got = append(got, txtar.File{Name: "warnings", Data: []byte(warnings.String())})
			}
			if err != nil {
				msg := strings.ReplaceAll(err.Error(), dir+string(filepath.Separator), "")
				got = append(got, txtar.File{Name: "error", Data: []byte(msg + "\n")})
			}
			pkgFiles := map[string][]byte{}
			for _, f := range files {
				got = append(got, txtar.File{Name: "out/" + f.Name, Data: f.Data})
				pkgFiles[f.Name] = f.Data
			}
			if len(pkgFiles) > 0 {
				compiled[strings.TrimSuffix(filepath.Base(path), ".txtar")] = pkgFiles
			}
			if *update {
				ar.Files = append(inputs, got...)
				if err := os.WriteFile(path, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want := map[string][]byte{}
			for _, f := range ar.Files {
				if f.Name == "error" || f.Name == "notices" || f.Name == "warnings" || strings.HasPrefix(f.Name, "out/") {
					want[f.Name] = f.Data
				}
			}
			for _, f := range got {
				w, ok := want[f.Name]
				switch {
				case !ok:
					t.Errorf("unexpected output %s:\n%s", f.Name, f.Data)
				case !bytes.Equal(w, f.Data):
					t.Errorf("%s differs from the golden file (run go test ./gen -run Golden -update after checking):\n%s", f.Name, lineDiff(string(w), string(f.Data)))
				}
				delete(want, f.Name)
			}
			for name := range want {
				t.Errorf("missing output %s", name)
			}
		})
	}
	// Every generated package compiles and is vet-clean.
	if len(compiled) == 0 {
		return
	}
	mod := gobuild.Module(t, "golden")
	var pkgs []string
	for name, files := range compiled {
		gobuild.WriteFiles(t, mod, name, files)
		pkgs = append(pkgs, "./"+name)
	}
	if out, err := gobuild.Go(t, mod, append([]string{"vet"}, pkgs...)...); err != nil {
		t.Fatalf("golden outputs do not compile:\n%s", out)
	}
	if testing.Short() {
		return
	}
	// The generated fuzz targets pass on their seed corpus (the boundary
	// matrix and the hostile seeds) for every golden package.
	if out, err := gobuild.Go(t, mod, append([]string{"test", "-run", "^FuzzDecode"}, pkgs...)...); err != nil {
		t.Fatalf("the fuzz targets of the golden outputs fail on their seeds:\n%s", out)
	}
}

// lineDiff shows the first differing line of two texts.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return "line " + strconv.Itoa(i+1) + ":\n  want: " + wl + "\n  got:  " + gl
		}
	}
	return "(equal lines; different line endings?)"
}
