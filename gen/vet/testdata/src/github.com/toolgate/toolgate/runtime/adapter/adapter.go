// Package adapter stubs toolgate's adapters.
package adapter

import "github.com/toolgate/toolgate/runtime/gate"

func ParseOpenAIChat(body []byte) ([]gate.Call, error) { return nil, nil }

// Call makes a gate call of one tool call's parts.
func Call(id, name string, args []byte) gate.Call { return gate.Call{ID: id, Name: name, Args: args} }
