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
	"sync/atomic"

	"github.com/toolgate/toolgate/gen/internal/udiff"
	"github.com/toolgate/toolgate/gen/internal/workers"
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
	// The files are opened in parallel; the answer and the first error are
	// taken in directory order.
	ok, errs := workers.Map(len(entries), func(i int) (bool, error) {
		if e := entries[i]; !e.IsDir() && strings.HasSuffix(e.Name(), ".go") {
			return hasHeader(filepath.Join(dir, e.Name()))
		}
		return false, nil
	})
	var owned []string
	for i, e := range entries {
		if errs[i] != nil {
			return nil, errs[i]
		}
		if ok[i] {
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
		if isOwned[f.Name] {
			continue
		}
		if _, err := os.Stat(path); err == nil {
			return nil, nil, &Error{File: path, Message: "exists and was not written by toolgate (its first line is not " + Header + "); move it away or choose another --out"}
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, err
	}
	// The files are compared and written in parallel; after a failure no
	// other write starts. Every file written is reported, in file order,
	// with the first error in file order.
	written, err = writeChanged(dir, files)
	if err != nil {
		return written, nil, err
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

// writeChanged writes each of files whose content in dir differs, in
// parallel, and returns the names of those written, in file order, and the
// first error in file order. After a failure no other write starts.
func writeChanged(dir string, files []File) (written []string, err error) {
	wrote := make([]bool, len(files))
	errs := make([]error, len(files))
	var failed atomic.Bool
	workers.Run(len(files), func(i int) {
		if failed.Load() {
			return
		}
		if wrote[i], errs[i] = WriteChanged(filepath.Join(dir, files[i].Name), files[i].Data); errs[i] != nil {
			failed.Store(true)
		}
	})
	for i, f := range files {
		if wrote[i] {
			written = append(written, f.Name)
		}
		if err == nil {
			err = errs[i]
		}
	}
	return written, err
}

// WriteChanged replaces path with data, atomically and with mode 0644,
// unless it holds data already: a file left as it was keeps its
// modification time. written reports a write.
func WriteChanged(path string, data []byte) (written bool, err error) {
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, data) {
		return false, nil
	}
	if err := writeAtomic(path, data); err != nil {
		return false, err
	}
	return true, nil
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
	for _, f := range files {
		want[f.Name] = true
	}
	// The files are read and compared in parallel; the first error in file
	// order is the answer, as it is when they are read one by one.
	found, errs := workers.Map(len(files), func(i int) (*Drift, error) { return compare(dir, files[i]) })
	var drift []Drift
	for i := range files {
		if errs[i] != nil {
			return nil, errs[i]
		}
		if found[i] != nil {
			drift = append(drift, *found[i])
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

// compare reads f from dir: nil when it holds f's bytes, else its drift.
func compare(dir string, f File) (*Drift, error) {
	path := filepath.Join(dir, f.Name)
	old, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &Drift{File: path, Problem: "missing", Diff: udiff.Diff("/dev/null", "", path, string(f.Data))}, nil
	case err != nil:
		return nil, err
	case !bytes.Equal(old, f.Data):
		return &Drift{File: path, Problem: "stale", Diff: udiff.Diff(path, string(old), path+" (generated)", string(f.Data))}, nil
	}
	return nil, nil
}
