// Command loadgen sends HTTP requests at a constant arrival rate (an open model, like k6's
// constant-arrival-rate executor or vegeta): a request starts every 1/rate seconds whether
// or not earlier ones have finished, so a slow server shows up as latency and errors, not
// as a lower request rate. It prints one JSON report with latency percentiles: to the end
// of each answer, and to its first body byte (for a stream, its first chunk).
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"sort"
	"strings"
	"sync"
	"time"
)

type headers []string

func (h *headers) String() string     { return strings.Join(*h, ", ") }
func (h *headers) Set(v string) error { *h = append(*h, v); return nil }

func main() {
	url := flag.String("url", "", "target URL")
	method := flag.String("method", "POST", "HTTP method")
	bodyFile := flag.String("body", "", "file holding the request body")
	rate := flag.Int("rate", 1000, "requests per second")
	duration := flag.Duration("duration", 30*time.Second, "how long to send")
	timeout := flag.Duration("timeout", 10*time.Second, "per-request timeout")
	unique := flag.Bool("unique", false, "replace {{n}} in the body with the request's number, so every body differs")
	var hs headers
	flag.Var(&hs, "H", "header 'Name: value' (repeatable)")
	flag.Parse()
	if *url == "" || *rate <= 0 {
		fmt.Fprintln(os.Stderr, "usage: loadgen -url URL [-body FILE] [-rate N] [-duration D] [-H 'k: v']")
		os.Exit(2)
	}
	var body []byte
	if *bodyFile != "" {
		var err error
		if body, err = os.ReadFile(*bodyFile); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	client := &http.Client{Timeout: *timeout, Transport: &http.Transport{
		MaxIdleConns: 10000, MaxIdleConnsPerHost: 10000, IdleConnTimeout: 90 * time.Second,
		DisableCompression: true,
	}}
	total := int(float64(*rate) * duration.Seconds())
	latencies := make([]time.Duration, total)
	firsts := make([]time.Duration, total)
	codes := make([]int, total)
	var wg sync.WaitGroup
	interval := time.Second / time.Duration(*rate)
	start := time.Now()
	for i := 0; i < total; i++ {
		if wait := time.Until(start.Add(time.Duration(i) * interval)); wait > 0 {
			time.Sleep(wait)
		}
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			payload := body
			if *unique {
				payload = bytes.ReplaceAll(body, []byte("{{n}}"), []byte(fmt.Sprint(i)))
			}
			req, _ := http.NewRequest(*method, *url, bytes.NewReader(payload))
			for _, h := range hs {
				if k, v, ok := strings.Cut(h, ":"); ok {
					req.Header.Set(strings.TrimSpace(k), strings.TrimSpace(v))
				}
			}
			began := time.Now()
			resp, err := client.Do(req)
			if err == nil {
				firsts[i], err = drain(resp.Body, began)
				resp.Body.Close()
				codes[i] = resp.StatusCode
			}
			latencies[i] = time.Since(began)
			if firsts[i] == 0 {
				firsts[i] = latencies[i]
			}
			if err != nil {
				codes[i] = 0
			}
		}(i)
	}
	sent := time.Since(start)
	wg.Wait()
	pct := percentiles(latencies)
	first := percentiles(firsts)
	byCode := map[string]int{}
	ok := 0
	var sum time.Duration
	for i, c := range codes {
		byCode[fmt.Sprint(c)]++
		if c >= 200 && c < 300 {
			ok++
		}
		sum += latencies[i]
	}
	report := map[string]any{
		"requests": total, "rate": float64(total) / sent.Seconds(), "success": float64(ok) / float64(total),
		"status_codes": byCode, "mean_ms": float64(sum.Microseconds()) / 1000 / float64(total),
		"p50_ms": pct(50), "p90_ms": pct(90), "p99_ms": pct(99), "p999_ms": pct(99.9), "max_ms": pct(100),
		"first_byte_p50_ms": first(50), "first_byte_p90_ms": first(90), "first_byte_p99_ms": first(99),
	}
	json.NewEncoder(os.Stdout).Encode(report)
}

// drain reads a body to its end and returns when its first byte arrived, counted from began
// (0 for an empty body).
func drain(body io.Reader, began time.Time) (time.Duration, error) {
	buf := make([]byte, 32*1024)
	var first time.Duration
	for {
		n, err := body.Read(buf)
		if n > 0 && first == 0 {
			first = time.Since(began)
		}
		if err == io.EOF {
			return first, nil
		}
		if err != nil {
			return first, err
		}
	}
}

// percentiles returns a function from a percentile to its value in milliseconds.
func percentiles(values []time.Duration) func(float64) float64 {
	sorted := append([]time.Duration(nil), values...)
	sort.Slice(sorted, func(a, b int) bool { return sorted[a] < sorted[b] })
	return func(p float64) float64 {
		idx := int(p/100*float64(len(sorted))+0.5) - 1
		if idx < 0 {
			idx = 0
		}
		if idx >= len(sorted) {
			idx = len(sorted) - 1
		}
		return float64(sorted[idx].Microseconds()) / 1000
	}
}
