package contract

import (
	"strings"
	"testing"
	"time"
)

func TestSlowCases(t *testing.T) {
	arr := `{"type":"integer"}`
	for i := 0; i < 4; i++ {
		arr = `{"type":"array","uniqueItems":true,"minItems":1,"maxItems":200,"items":` + arr + `}`
	}
	obj := `{"type":"string"}`
	for i := 0; i < 6; i++ {
		obj = `{"type":"object","properties":{"a":` + obj + `,"b":` + obj + `,"c":` + obj + `},"required":["a","b","c"]}`
	}
	cases := map[string]string{
		"nested unique arrays": `{"type":"object","properties":{"a":` + arr + `},"required":["a"]}`,
		"wide tree":            `{"type":"object","properties":{"a":` + obj + `},"required":["a"]}`,
		"long strings":         `{"type":"object","properties":{"s":{"type":"string","pattern":"^(a|b)+$","minLength":4000,"maxLength":4095}},"required":["s"]}`,
		"many props":           `{"type":"object","properties":{` + strings.Repeat(`"x":{"type":"string"},`, 0) + props(300) + `}}`,
	}
	for name, s := range cases {
		t0 := time.Now()
		ins, err := Instances([]byte(s), 200)
		t.Logf("%s: %v, %d instances, err %v", name, time.Since(t0), len(ins), err)
	}
}

func props(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"p` + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + `` + itoa(i) + `":{"type":"integer","minimum":0,"maximum":9}`)
	}
	return b.String()
}

func itoa(i int) string { return strings.TrimSpace(strings.Repeat(" ", 0)) + string(rune('0'+i/100)) + string(rune('0'+i/10%10)) + string(rune('0'+i%10)) }
