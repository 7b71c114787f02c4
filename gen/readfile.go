package gen

import (
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/toolgate/toolgate/runtime/jsonval"
)

// toolFileLimit is the size limit of a tool file: the most a tool document
// may hold (jsonval.Limits.MaxBytes, 64 MiB).
var toolFileLimit = jsonval.Limits.MaxBytes

// ReadToolFile reads the tool file at path defensively. A symlink is
// followed; anything but a regular file (a device such as /dev/zero, a
// FIFO, a directory) is refused before it is opened, and a file over the
// tool file limit (64 MiB) before it is read. At most the limit and one
// byte are ever read, so a file that grows while it is read is refused too.
func ReadToolFile(path string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if err := regularUnderLimit(path, st); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// The file opened may not be the one looked at: it is checked again.
	if st, err = f.Stat(); err != nil {
		return nil, err
	}
	if err := regularUnderLimit(path, st); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(f, int64(toolFileLimit)+1))
	if err != nil {
		return nil, err
	}
	if len(data) > toolFileLimit {
		return nil, tooLarge(path)
	}
	return data, nil
}

// regularUnderLimit refuses st, the file at path, unless it is a regular
// file within the tool file limit.
func regularUnderLimit(path string, st fs.FileInfo) error {
	if !st.Mode().IsRegular() {
		return &fs.PathError{Op: "read", Path: path, Err: fmt.Errorf("%s, not a regular file: a tool file must be a regular file", fileKind(st.Mode()))}
	}
	if st.Size() > int64(toolFileLimit) {
		return tooLarge(path)
	}
	return nil
}

func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "mode " + m.Type().String()
}

func tooLarge(path string) error {
	return &Error{File: path, Message: fmt.Sprintf("larger than the tool file limit of %d MiB", toolFileLimit>>20)}
}
