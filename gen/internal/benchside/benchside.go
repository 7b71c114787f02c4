// Package benchside measures argument decoders side by side in one process:
// every contender runs on the same bytes in interleaved rounds, and the
// figures reported are medians of per-round ratios of CPU time, so that a
// noisy, shared machine slows every contender of a round alike and the
// ratios stay comparable. `make bench` runs it (see testdata/sidebyside).
package benchside

import (
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"
)

// A Contender is one way of handling argument bytes. It returns an error
// when it refuses them.
type Contender struct {
	Name string
	Run  func([]byte) error
}

// A Case is one payload and the contenders measured on it. The first
// contender is the subject; the others are the references it is compared
// with. Accept says whether the subject must accept the payload (false: it
// must refuse it).
type Case struct {
	Name       string
	Data       []byte
	Accept     bool
	Contenders []Contender
}

// Result holds a case's medians: per contender the CPU nanoseconds and
// allocations per call, and the median over rounds of subject/contender.
type Result struct {
	Case   string
	Bytes  int
	NsOp   []float64 // median ns per call, per contender
	Allocs []float64 // allocations per call, per contender
	Ratio  []float64 // median of per-round subject/contender, per contender
}

// Options bound the work of a run.
type Options struct {
	Rounds int           // interleaved rounds (at least 8 for the table)
	Batch  time.Duration // CPU time one contender gets in a round
}

// Check runs every case's subject once and reports a case whose outcome is
// not the one it declares, so that no benchmark measures an early exit.
func Check(cases []Case) error {
	for _, c := range cases {
		err := c.Contenders[0].Run(c.Data)
		if (err == nil) != c.Accept {
			return fmt.Errorf("%s: %s: accepted=%v, want %v (%v)", c.Name, c.Contenders[0].Name, err == nil, c.Accept, err)
		}
	}
	return nil
}

// Run measures every case: the iteration count of each contender is
// calibrated once to take about opts.Batch, then each round runs, for every
// case, every contender's batch back to back, the starting contender
// rotating from round to round.
func Run(cases []Case, opts Options) []Result {
	iters := make([][]int, len(cases))
	for i, c := range cases {
		iters[i] = make([]int, len(c.Contenders))
		for j, k := range c.Contenders {
			iters[i][j] = calibrate(k.Run, c.Data, opts.Batch)
		}
	}
	// perOp[i][j][r]: ns per call of contender j of case i in round r.
	perOp := make([][][]float64, len(cases))
	for i, c := range cases {
		perOp[i] = make([][]float64, len(c.Contenders))
	}
	for r := range opts.Rounds {
		for i, c := range cases {
			n := len(c.Contenders)
			for s := range n {
				j := (s + r) % n
				ns := cpuTime(c.Contenders[j].Run, c.Data, iters[i][j])
				perOp[i][j] = append(perOp[i][j], ns/float64(iters[i][j]))
			}
		}
	}
	results := make([]Result, len(cases))
	for i, c := range cases {
		res := Result{Case: c.Name, Bytes: len(c.Data)}
		for j, k := range c.Contenders {
			res.NsOp = append(res.NsOp, Median(perOp[i][j]))
			res.Allocs = append(res.Allocs, allocsPerCall(k.Run, c.Data))
			res.Ratio = append(res.Ratio, MedianRatio(perOp[i][0], perOp[i][j]))
		}
		results[i] = res
	}
	return results
}

// calibrate returns how many calls of f take about d of CPU time.
func calibrate(f func([]byte) error, data []byte, d time.Duration) int {
	n := 1
	for {
		ns := cpuTime(f, data, n)
		if ns >= float64(d)/4 || n >= 1<<30 {
			per := ns / float64(n)
			if per <= 0 {
				return n
			}
			return max(1, int(float64(d)/per))
		}
		n *= 4
	}
}

// cpuTime returns the CPU time, in nanoseconds, the process spends on n
// calls of f (the garbage collector's share included: allocation is part
// of the cost).
func cpuTime(f func([]byte) error, data []byte, n int) float64 {
	start := processCPU()
	for range n {
		_ = f(data)
	}
	return float64(processCPU() - start)
}

func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// allocsPerCall counts the heap allocations of one call of f, averaged.
func allocsPerCall(f func([]byte) error, data []byte) float64 {
	const n = 200
	_ = f(data)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range n {
		_ = f(data)
	}
	runtime.ReadMemStats(&after)
	return float64(after.Mallocs-before.Mallocs) / n
}

// Median returns the median of xs (the mean of the middle two for an even
// count), 0 for none.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}

// MedianRatio returns the median over rounds of a[r]/b[r].
func MedianRatio(a, b []float64) float64 {
	n := min(len(a), len(b))
	rs := make([]float64, 0, n)
	for r := range n {
		if b[r] > 0 {
			rs = append(rs, a[r]/b[r])
		}
	}
	return Median(rs)
}

// Report checks cases, measures them and writes their table to w, under a
// line naming the rounds, Go and the machine, and legend.
func Report(w io.Writer, cases []Case, opts Options, legend string) error {
	if err := Check(cases); err != nil {
		return err
	}
	results := Run(cases, opts)
	fmt.Fprintf(w, "Medians of %d interleaved rounds of per-round CPU-time ratios; %s, %s/%s, %d CPUs (GOMAXPROCS %d).\n",
		opts.Rounds, runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.GOMAXPROCS(0))
	fmt.Fprintf(w, "%s\n\n", legend)
	Print(w, results, cases)
	return nil
}

// Print writes the results as one Markdown table: per case, the subject's
// CPU time and allocations per call, then its median ratio to each other
// contender (a column per contender name, in order of first appearance;
// blank where a case does not have that contender).
func Print(w io.Writer, results []Result, cases []Case) {
	var names []string
	for _, c := range cases {
		for _, k := range c.Contenders[1:] {
			if !slices.Contains(names, k.Name) {
				names = append(names, k.Name)
			}
		}
	}
	subject := cases[0].Contenders[0].Name
	fmt.Fprintf(w, "| payload | bytes | %s ns | allocs |", subject)
	for _, n := range names {
		fmt.Fprintf(w, " ÷ %s |", n)
	}
	fmt.Fprintf(w, "\n|---|---:|---:|---:|%s\n", strings.Repeat("---:|", len(names)))
	for i, res := range results {
		fmt.Fprintf(w, "| %s | %d | %.0f | %.0f |", res.Case, res.Bytes, res.NsOp[0], res.Allocs[0])
		for _, n := range names {
			j := slices.IndexFunc(cases[i].Contenders, func(k Contender) bool { return k.Name == n })
			if j <= 0 {
				fmt.Fprint(w, " |")
				continue
			}
			fmt.Fprintf(w, " %.2f× |", res.Ratio[j])
		}
		fmt.Fprintln(w)
	}
}
