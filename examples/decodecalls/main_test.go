package main

import (
	"strings"
	"testing"
)

func TestDescribe(t *testing.T) {
	tests := []struct {
		call, want string
	}{
		{calls[0], "accepted: refund 2500 cents on A-19 (requested_by_customer), notify=true"},
		{calls[1], `"keyword":"additionalProperties","instancePath":"/amount"`},
		{calls[2], `"keyword":"type","instancePath":"/amountInCents"`},
		{calls[3], `"instancePath":"/approvedBy"`},
		{calls[4], `"code":"invalid_json"`},
		{calls[5], `tool arguments must be a JSON object, not a string`},
	}
	for _, tt := range tests {
		if got := describe([]byte(tt.call)); !strings.Contains(got, tt.want) {
			t.Errorf("describe(%s) = %s\nwant it to contain %s", tt.call, got, tt.want)
		}
	}
}
