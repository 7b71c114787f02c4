package gen

import (
	"bufio"
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/toolgate/toolgate/gen/internal/udiff"
)

// Owned lists the files in dir that toolgate owns: Go files whose first line
// is Header. It never looks at, and so never touches, any other file.
func Owned(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var owned []string
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		ok, err := hasHeader(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		if ok {
			owned = append(owned, e.Name())
		}
	}
	return owned, nil
}

func hasHeader(path string) (bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	line, err := bufio.NewReader(f).ReadString('\n')
	if err != nil && line == "" {
		return false, nil
	}
	return strings.TrimRight(line, "\r\n") == Header, nil
}

// Write makes dir hold exactly files among the files toolgate owns: it
// writes each file whose content differs, and removes owned files that are
// no longer generated. A file of the same name that toolgate does not own is
// an error, and then nothing is written. Each file is replaced atomically;
// the set is not: a failure part-way (a full disk) leaves some files new,
// and the next run finishes the job.
func Write(dir string, files []File) (written, removed []string, err error) {
	owned, err := Owned(dir)
	if err != nil {
		return nil, nil, err
	}
	isOwned := map[string]bool{}
	for _, name := range owned {
		isOwned[name] = true
	}
	want := map[string]bool{}
	for _, f := range files {
		want[f.Name] = true
		path := filepath.Join(dir, f.Name)
		if _, err := os.Stat(path); err == nil && !isOwned[f.Name] {
			return nil, nil, &Error{File: path, Message: "exists and was not written by toolgate (its first line is not " + Header + "); move it away or choose another --out"}
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, err
	}
	for _, f := range files {
		path := filepath.Join(dir, f.Name)
		if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, f.Data) {
			continue
		}
		if err := writeAtomic(path, f.Data); err != nil {
			return written, removed, err
		}
		written = append(written, f.Name)
	}
	for _, name := range owned {
		if !want[name] {
			if err := os.Remove(filepath.Join(dir, name)); err != nil {
				return written, removed, err
			}
			removed = append(removed, name)
		}
	}
	return written, removed, nil
}

// writeAtomic replaces path with data through a temporary file, so a
// reader (or an interrupted run) never sees half a file.
func writeAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".toolgate-*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}

// Drift is one difference between what would be generated and what is in
// the output directory.
type Drift struct {
	File string
	// Problem is "stale", "missing" or "extra".
	Problem string
	// Diff is a unified diff from the file on disk to the generated one.
	Diff string
}

// Check compares files with what dir holds, byte for byte, and returns every
// stale, missing or extra (owned but no longer generated) file.
func Check(dir string, files []File) ([]Drift, error) {
	owned, err := Owned(dir)
	if err != nil {
		return nil, err
	}
	want := map[string]bool{}
	var drift []Drift
	for _, f := range files {
		want[f.Name] = true
		path := filepath.Join(dir, f.Name)
		old, err := os.ReadFile(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			drift = append(drift, Drift{File: path, Problem: "missing", Diff: udiff.Diff("/dev/null", "", path, string(f.Data))})
		case err != nil:
			return nil, err
		case !bytes.Equal(old, f.Data):
			drift = append(drift, Drift{File: path, Problem: "stale", Diff: udiff.Diff(path, string(old), path+" (generated)", string(f.Data))})
		}
	}
	for _, name := range owned {
		if !want[name] {
			path := filepath.Join(dir, name)
			old, err := os.ReadFile(path)
			if err != nil {
				return nil, err
			}
			drift = append(drift, Drift{File: path, Problem: "extra", Diff: udiff.Diff(path, string(old), "/dev/null", "")})
		}
	}
	sort.Slice(drift, func(i, j int) bool { return drift[i].File < drift[j].File })
	return drift, nil
}
