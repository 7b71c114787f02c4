// Package genai stubs the genai types.
package genai

type FunctionCall struct {
	ID   string
	Args map[string]any
	Name string
}
