package schemadiff

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/toolgate/toolgate/runtime/jsonval"
)

// Allowance accepts one breaking change, with the reason written down.
type Allowance struct {
	Tool   string
	Change string
	// At, when set, narrows it to changes at that pointer (in the
	// effective schema) or under it.
	At     string
	Reason string
}

// Config lists the breaking changes a diff accepts:
//
//	{"allow": [{"tool": "refund_order", "change": "enum-value-removed",
//	  "at": "/properties/reason/enum",
//	  "reason": "no queued refund uses duplicate since 2026-11"}]}
type Config struct {
	Allow []Allowance
}

func (c Config) allows(ch Change) string {
	if ch.Worst() != Breaking {
		return ""
	}
	for _, a := range c.Allow {
		if a.Tool == ch.Tool && a.Change == ch.Kind && (a.At == "" || ch.Pointer == a.At || strings.HasPrefix(ch.Pointer, a.At+"/")) {
			return a.Reason
		}
	}
	return ""
}

// ConfigError is an invalid configuration file.
type ConfigError struct {
	File, Pointer, Message string
}

func (e *ConfigError) Error() string { return e.File + "#" + e.Pointer + ": " + e.Message }

// LoadConfig reads a diff configuration file.
func LoadConfig(path string) (Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Config{}, err
	}
	fail := func(ptr, format string, args ...any) (Config, error) {
		return Config{}, &ConfigError{File: path, Pointer: ptr, Message: fmt.Sprintf(format, args...)}
	}
	doc, err := jsonval.Parse(data)
	if err != nil {
		return fail("", "%v", err)
	}
	list := doc.Get("allow")
	if doc.Kind != jsonval.Object || len(doc.Members) != 1 || list == nil || list.Kind != jsonval.Array {
		return fail("", "a diff config is an object with one member, allow: an array of {tool, change, at, reason}")
	}
	var cfg Config
	for i, it := range list.Items {
		at := "/allow/" + strconv.Itoa(i)
		if it.Kind != jsonval.Object {
			return fail(at, "an entry is an object with tool, change, at and reason")
		}
		var a Allowance
		for _, m := range it.Members {
			if m.Value.Kind != jsonval.String {
				return fail(at+"/"+jsonval.EscapeToken(m.Key), "%s must be a string", m.Key)
			}
			switch m.Key {
			case "tool":
				a.Tool = m.Value.Str
			case "change":
				a.Change = m.Value.Str
			case "at":
				a.At = m.Value.Str
			case "reason":
				a.Reason = strings.TrimSpace(m.Value.Str)
			default:
				return fail(at+"/"+jsonval.EscapeToken(m.Key), "unknown member %q (want tool, change, at, reason)", m.Key)
			}
		}
		k := KindByID(a.Change)
		switch {
		case a.Tool == "":
			return fail(at, "an allowance names its tool")
		case k == nil:
			return fail(at+"/change", "unknown change kind %q", a.Change)
		case max(k.Callers, k.Queued) != Breaking:
			return fail(at+"/change", "%s is not breaking; nothing to allow", a.Change)
		case a.Reason == "":
			return fail(at, "allowing %s needs a reason", a.Change)
		case a.At != "" && !strings.HasPrefix(a.At, "/"):
			return fail(at+"/at", "at must be a JSON pointer into the effective schema, such as /properties/reason/enum")
		}
		cfg.Allow = append(cfg.Allow, a)
	}
	return cfg, nil
}
