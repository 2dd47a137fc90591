package collect

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/collect/fakellm"
)

const secretKey = "sk-test-SECRET-0123456789"

func testClient(tb testing.TB, url string, mutate func(*LLMConfig)) (*OpenAIClient, *[]time.Duration) {
	tb.Helper()
	retries := 3
	cfg := LLMConfig{BaseURL: url, Model: "fake-model", APIKeyEnv: "TEST_KEY", Concurrency: 2,
		Timeout: Duration{2 * time.Second}, MaxRetries: &retries, RetryBase: Duration{time.Millisecond}, RetryMax: Duration{5 * time.Second}}
	if mutate != nil {
		mutate(&cfg)
	}
	c, err := NewOpenAIClient(cfg, func(k string) string {
		if k == "TEST_KEY" {
			return secretKey
		}
		return ""
	}, nil)
	if err != nil {
		tb.Fatal(err)
	}
	var mu sync.Mutex
	waits := &[]time.Duration{}
	c.sleep = func(ctx context.Context, d time.Duration) error {
		mu.Lock()
		*waits = append(*waits, d)
		mu.Unlock()
		return nil
	}
	return c, waits
}

func TestClientRetries(t *testing.T) {
	ok := fakellm.Reply{Choices: []string{"SELECT 1"}, Prompt: 11, Completion: 3}
	tests := []struct {
		name      string
		first     fakellm.Reply // the first answer to a request; later attempts get ok
		wantErr   bool
		wantReqs  int
		wantWait  time.Duration // the first wait, when exact (Retry-After)
		timeoutMS int
	}{
		{name: "ok", first: ok, wantReqs: 1},
		{name: "429 with Retry-After", first: fakellm.Reply{Status: 429, RetryAfter: "2"}, wantReqs: 2, wantWait: 2 * time.Second},
		{name: "429 with Retry-After beyond the cap", first: fakellm.Reply{Status: 429, RetryAfter: "3600"}, wantReqs: 2, wantWait: 5 * time.Second},
		{name: "500", first: fakellm.Reply{Status: 500}, wantReqs: 2},
		{name: "503", first: fakellm.Reply{Status: 503}, wantReqs: 2},
		{name: "malformed body", first: fakellm.Reply{Raw: `{"choices": [`}, wantReqs: 2},
		{name: "no choices", first: fakellm.Reply{Choices: nil}, wantReqs: 2},
		{name: "slow: per-request timeout", first: fakellm.Reply{Delay: 3 * time.Second, Choices: []string{"late"}}, wantReqs: 2, timeoutMS: 100},
		{name: "400 is not retried", first: fakellm.Reply{Status: 400, Error: "bad request"}, wantErr: true, wantReqs: 1},
		{name: "401 is not retried", first: fakellm.Reply{Status: 401, Error: "bad key " + secretKey}, wantErr: true, wantReqs: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := fakellm.New(func(r fakellm.Request) fakellm.Reply {
				if r.Attempt == 1 {
					return tt.first
				}
				return ok
			}, 20)
			defer srv.Close()
			c, waits := testClient(t, srv.BaseURL, func(l *LLMConfig) {
				if tt.timeoutMS > 0 {
					l.Timeout = Duration{time.Duration(tt.timeoutMS) * time.Millisecond}
				}
			})
			resp, err := c.Chat(context.Background(), ChatRequest{Messages: []Message{{Role: "user", Content: "q"}}})
			if got := len(srv.Requests()); got != tt.wantReqs {
				t.Errorf("requests = %d, want %d", got, tt.wantReqs)
			}
			if tt.wantErr {
				if !errors.Is(err, ErrLLM) {
					t.Fatalf("err = %v, want ErrLLM", err)
				}
				if strings.Contains(err.Error(), secretKey) {
					t.Errorf("error message holds the API key: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if resp.PromptTokens != 11 || resp.CompletionTokens != 3 || resp.TotalTokens != 14 || resp.Choices[0] != "SELECT 1" {
				t.Errorf("response %+v", resp)
			}
			if tt.wantWait > 0 && (len(*waits) == 0 || (*waits)[0] != tt.wantWait) {
				t.Errorf("waits %v, want first %v", *waits, tt.wantWait)
			}
			for _, r := range srv.Requests() {
				if r.Authorization != "Bearer "+secretKey || r.Model != "fake-model" {
					t.Errorf("request auth %q model %q", r.Authorization, r.Model)
				}
			}
		})
	}
}

func TestClientGivesUp(t *testing.T) {
	srv := fakellm.New(func(fakellm.Request) fakellm.Reply { return fakellm.Reply{Status: 500} }, 20)
	defer srv.Close()
	c, waits := testClient(t, srv.BaseURL, nil)
	_, err := c.Chat(context.Background(), ChatRequest{Messages: []Message{{Role: "user", Content: "q"}}})
	if !errors.Is(err, ErrLLM) || len(srv.Requests()) != 4 || len(*waits) != 3 {
		t.Errorf("err %v after %d requests, %d waits; want ErrLLM after 4 and 3", err, len(srv.Requests()), len(*waits))
	}
	// Backoff is bounded by base*2^attempt (1ms, 2ms, 4ms here).
	for i, w := range *waits {
		if w < 0 || w > time.Millisecond<<i {
			t.Errorf("wait %d = %v, want within [0, %v]", i, w, time.Millisecond<<i)
		}
	}
}

func TestClientSamplesAndParams(t *testing.T) {
	srv := fakellm.New(func(r fakellm.Request) fakellm.Reply {
		ch := make([]string, max(r.N, 1))
		for i := range ch {
			ch[i] = "SELECT " + string(rune('a'+i))
		}
		return fakellm.Reply{Choices: ch, Prompt: 5, Completion: 2}
	}, 20)
	defer srv.Close()
	c, _ := testClient(t, srv.BaseURL, nil)
	temp, seed := 0.7, int64(42)
	resp, err := c.Chat(context.Background(), ChatRequest{Messages: []Message{{Role: "user", Content: "q"}}, N: 3, Temperature: &temp, Seed: &seed, MaxTokens: 99})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Choices) != 3 {
		t.Errorf("choices %v", resp.Choices)
	}
	r := srv.Requests()[0]
	if r.N != 3 || r.Temperature == nil || *r.Temperature != 0.7 || r.Seed == nil || *r.Seed != 42 || r.MaxTokens != 99 {
		t.Errorf("request %+v", r)
	}
}

func TestNoAPIKey(t *testing.T) {
	_, err := NewOpenAIClient(LLMConfig{APIKeyEnv: "NOPE_KEY"}, func(string) string { return "" }, nil)
	if !errors.Is(err, ErrNoAPIKey) || !strings.Contains(err.Error(), "NOPE_KEY") {
		t.Errorf("err = %v", err)
	}
}

func TestRateLimit(t *testing.T) {
	l := NewLimiter(600) // one per 100ms
	start := time.Now()
	for range 4 {
		if err := l.Wait(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if el := time.Since(start); el < 290*time.Millisecond {
		t.Errorf("4 requests at 600/min took %v, want >= 300ms", el)
	}
}
