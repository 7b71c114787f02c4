package lint

import (
	"sync"

	"github.com/toolgate/toolgate/gen"
	"github.com/toolgate/toolgate/gen/internal/jsonpos"
)

// Locator finds the line:column of JSON pointers in tool files, as
// findings carry them, for what others report about the files (the
// generator's warnings). Each file is read once. The zero Locator is ready
// to use; it is safe for concurrent use.
type Locator struct {
	mu    sync.Mutex
	files map[string]*jsonpos.Map
}

// Find returns the position of the value at ptr in file (of its nearest
// ancestor when the file has no such value); err is a file that cannot be
// read or parsed.
func (l *Locator) Find(file, ptr string) (jsonpos.Pos, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	m, ok := l.files[file]
	if !ok {
		data, err := gen.ReadToolFile(file)
		if err != nil {
			return jsonpos.Pos{}, err
		}
		if m, err = jsonpos.Read(data); err != nil {
			return jsonpos.Pos{}, err
		}
		if l.files == nil {
			l.files = map[string]*jsonpos.Map{}
		}
		l.files[file] = m
	}
	return m.Find(ptr), nil
}
