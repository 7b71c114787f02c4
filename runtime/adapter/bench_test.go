package adapter

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/runtime/gate"
)

// The benchmarks run each shape at 1x, 10x and 100x its size: time per op
// must grow linearly (10x per step), and B/op linearly or, past a cap, not
// at all. Compare the ratios within one run.

// BenchmarkWholeText parses whole responses of 800, 8,000 and 80,000 text
// blocks (parts) of 120 bytes and one call: 100 KB to 10 MB bodies.
func BenchmarkWholeText(b *testing.B) {
	for _, d := range []gate.Dialect{gate.Anthropic, gate.Gemini, gate.OpenAIResponses} {
		for _, n := range []int{800, 8000, 80000} {
			body := wholeText(d, n)
			b.Run(fmt.Sprintf("%s/blocks=%d", d, n), func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(body)))
				for range b.N {
					if _, err := Parse(d, body); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkStreamText assembles streams of 800, 8,000 and 80,000 text
// events (Anthropic: text blocks) of 120 bytes.
func BenchmarkStreamText(b *testing.B) {
	for _, d := range streamDialects {
		for _, n := range []int{800, 8000, 80000} {
			evs := streamSpec{text: n}.events(d)
			b.Run(fmt.Sprintf("%s/events=%d", d, n), func(b *testing.B) {
				b.ReportAllocs()
				for range b.N {
					if _, _, err := pushAll(d, evs); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkStreamArgs assembles one call of 10 KiB, 100 KiB and 1000 KiB
// arguments in 1 KiB fragments.
func BenchmarkStreamArgs(b *testing.B) {
	for _, d := range streamDialects {
		for _, kib := range []int{10, 100, 1000} {
			sp := streamSpec{calls: 1, frags: kib, args: `"` + strings.Repeat("a", kib<<10-2) + `"`}
			evs := sp.events(d)
			b.Run(fmt.Sprintf("%s/KiB=%d", d, kib), func(b *testing.B) {
				b.ReportAllocs()
				for range b.N {
					if _, _, err := pushAll(d, evs); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkStreamOversize pushes 2, 20 and 200 argument deltas of 1 MiB
// for one call: the stream fails at the second with limit_exceeded, so
// B/op stays at one call's cap whatever the number of deltas.
func BenchmarkStreamOversize(b *testing.B) {
	for _, d := range streamDialects {
		// The call's start, then its first delta, repeated.
		evs := streamSpec{calls: 1, frags: 1, args: strings.Repeat("a", MaxCallBytes)}.events(d)
		start := 2 // message start and call start; Chat has no message start
		if d == gate.OpenAIChat {
			start = 1
		}
		for _, n := range []int{2, 20, 200} {
			stream := evs[:start:start]
			for range n {
				stream = append(stream, evs[start])
			}
			b.Run(fmt.Sprintf("%s/deltas=%d", d, n), func(b *testing.B) {
				b.ReportAllocs()
				for range b.N {
					_, pushed, err := pushAll(d, stream)
					var e *Error
					if pushed != start+1 || !errors.As(err, &e) || e.Code != LimitExceeded {
						b.Fatalf("%d events accepted: %v", pushed, err)
					}
				}
			})
		}
	}
}

// BenchmarkChatStreamOrder assembles Chat streams of 40, 400 and 4,000
// calls whose indexes arrive ascending or descending: both linear, at the
// same cost.
func BenchmarkChatStreamOrder(b *testing.B) {
	for _, order := range []string{"ascending", "descending"} {
		for _, n := range []int{40, 400, 4000} {
			sp := streamSpec{calls: n, step: 1, frags: 2, args: a19}
			if order == "descending" {
				sp.first, sp.step = n-1, -1
			}
			evs := sp.events(gate.OpenAIChat)
			b.Run(fmt.Sprintf("%s/calls=%d", order, n), func(b *testing.B) {
				b.ReportAllocs()
				for range b.N {
					if turn, _, err := pushAll(gate.OpenAIChat, evs); err != nil || len(turn.Calls) != n {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
