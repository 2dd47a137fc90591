package collect

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

// Sentinel errors of the LLM client.
var (
	ErrNoAPIKey    = errors.New("API key environment variable is not set")
	ErrLLM         = errors.New("LLM request failed")
	ErrBadResponse = errors.New("malformed LLM response")
)

// Message is one chat message.
type Message struct {
	Role    string `json:"role"` // system, user or assistant
	Content string `json:"content"`
}

// ChatRequest is one chat-completions request; the model comes from the client.
type ChatRequest struct {
	Messages    []Message `json:"messages"`
	Temperature *float64  `json:"temperature,omitempty"`
	TopP        *float64  `json:"top_p,omitempty"`
	MaxTokens   int       `json:"max_tokens,omitempty"`
	N           int       `json:"n,omitempty"`
	Seed        *int64    `json:"seed,omitempty"`
	// Part tells apart repeated requests for more samples when a server returns fewer
	// choices than n asked for; it is never sent, only part of the cache key.
	Part int `json:"part,omitempty"`
}

// ChatResponse is what a request returned.
type ChatResponse struct {
	Choices          []string `json:"choices"`
	PromptTokens     int      `json:"prompt_tokens"`
	CompletionTokens int      `json:"completion_tokens"`
	TotalTokens      int      `json:"total_tokens"`
	LatencyMS        int64    `json:"latency_ms"`
	Cached           bool     `json:"-"` // served from the response cache
}

// LLM answers chat requests.
type LLM interface {
	Chat(ctx context.Context, req ChatRequest) (*ChatResponse, error)
}

// ClientStats counts what a client did.
type ClientStats struct {
	Requests atomic.Int64 // HTTP requests sent, retries included
	Retries  atomic.Int64
}

// OpenAIClient calls an OpenAI-compatible chat-completions endpoint (OpenAI, DeepSeek,
// vLLM, Ollama, llama.cpp's server...) with its own retry policy: 429, 5xx, timeouts,
// network errors and malformed bodies are retried with exponential backoff and full
// jitter, honouring Retry-After; concurrency and requests per minute are bounded.
type OpenAIClient struct {
	cfg    LLMConfig
	key    string
	client openai.Client
	sem    chan struct{}
	rate   *Limiter
	Stats  ClientStats
	// sleep waits d or until ctx ends; tests replace it to record waits.
	sleep func(ctx context.Context, d time.Duration) error
}

// NewOpenAIClient builds a client for cfg; the API key is read from the environment
// variable cfg.APIKeyEnv names. httpClient may be nil.
func NewOpenAIClient(cfg LLMConfig, getenv func(string) string, httpClient *http.Client) (*OpenAIClient, error) {
	key := getenv(cfg.APIKeyEnv)
	if key == "" {
		return nil, fmt.Errorf("%s: %w (set it; local servers accept any value)", cfg.APIKeyEnv, ErrNoAPIKey)
	}
	if httpClient == nil {
		httpClient = &http.Client{}
	}
	opts := []option.RequestOption{
		option.WithBaseURL(strings.TrimRight(cfg.BaseURL, "/") + "/"),
		option.WithAPIKey(key),
		option.WithMaxRetries(0), // retries are ours, to honour Retry-After and count them
		option.WithHTTPClient(httpClient),
	}
	conc := max(cfg.Concurrency, 1)
	return &OpenAIClient{
		cfg:    cfg,
		key:    key,
		client: openai.NewClient(opts...),
		sem:    make(chan struct{}, conc),
		rate:   NewLimiter(cfg.RequestsPerMinute),
		sleep:  sleepCtx,
	}, nil
}

// Chat sends req, retrying transient failures. Errors never carry the API key.
func (c *OpenAIClient) Chat(ctx context.Context, req ChatRequest) (*ChatResponse, error) {
	params := openai.ChatCompletionNewParams{Model: c.cfg.Model}
	for _, m := range req.Messages {
		switch m.Role {
		case "system":
			params.Messages = append(params.Messages, openai.SystemMessage(m.Content))
		case "assistant":
			params.Messages = append(params.Messages, openai.AssistantMessage(m.Content))
		default:
			params.Messages = append(params.Messages, openai.UserMessage(m.Content))
		}
	}
	if req.Temperature != nil {
		params.Temperature = openai.Float(*req.Temperature)
	}
	if req.TopP != nil {
		params.TopP = openai.Float(*req.TopP)
	}
	if req.MaxTokens > 0 {
		params.MaxTokens = openai.Int(int64(req.MaxTokens))
	}
	if req.N > 1 {
		params.N = openai.Int(int64(req.N))
	}
	if req.Seed != nil {
		params.Seed = openai.Int(*req.Seed)
	}
	retries := 0
	if c.cfg.MaxRetries != nil {
		retries = *c.cfg.MaxRetries
	}
	var last error
	for attempt := 0; ; attempt++ {
		resp, wait, err := c.once(ctx, params)
		if err == nil {
			return resp, nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		last = c.redact(err)
		if wait < 0 || attempt >= retries {
			break
		}
		if wait == 0 {
			wait = c.backoff(attempt)
		}
		c.Stats.Retries.Add(1)
		if err := c.sleep(ctx, wait); err != nil {
			return nil, err
		}
	}
	return nil, fmt.Errorf("%w: %v", ErrLLM, last)
}

// once sends one HTTP request. wait is how long to wait before retrying: 0 means "back
// off", a positive value is the server's Retry-After, and -1 means "do not retry".
func (c *OpenAIClient) once(ctx context.Context, params openai.ChatCompletionNewParams) (*ChatResponse, time.Duration, error) {
	select {
	case c.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, -1, ctx.Err()
	}
	defer func() { <-c.sem }()
	if err := c.rate.Wait(ctx); err != nil {
		return nil, -1, err
	}
	actx, cancel := context.WithTimeout(ctx, c.cfg.Timeout.Duration)
	defer cancel()
	c.Stats.Requests.Add(1)
	start := time.Now()
	var httpResp *http.Response
	out, err := c.client.Chat.Completions.New(actx, params, option.WithResponseInto(&httpResp))
	latency := time.Since(start)
	if err != nil {
		if ctx.Err() != nil {
			return nil, -1, ctx.Err()
		}
		var apiErr *openai.Error
		if errors.As(err, &apiErr) {
			msg := fmt.Sprintf("HTTP %d", apiErr.StatusCode)
			if m := strings.TrimSpace(apiErr.Message); m != "" {
				msg += ": " + truncate(m, 300)
			}
			if retryable(apiErr.StatusCode) {
				return nil, retryAfter(apiErr.Response, c.cfg.RetryMax.Duration), errors.New(msg)
			}
			return nil, -1, errors.New(msg)
		}
		if actx.Err() != nil {
			return nil, 0, fmt.Errorf("no response within %v", c.cfg.Timeout.Duration)
		}
		// Network errors and bodies that are not JSON: transient as far as we can tell.
		return nil, 0, err
	}
	if len(out.Choices) == 0 {
		return nil, 0, fmt.Errorf("%w: no choices", ErrBadResponse)
	}
	r := &ChatResponse{
		PromptTokens:     int(out.Usage.PromptTokens),
		CompletionTokens: int(out.Usage.CompletionTokens),
		TotalTokens:      int(out.Usage.TotalTokens),
		LatencyMS:        latency.Milliseconds(),
	}
	if r.TotalTokens == 0 {
		r.TotalTokens = r.PromptTokens + r.CompletionTokens
	}
	for _, ch := range out.Choices {
		r.Choices = append(r.Choices, ch.Message.Content)
	}
	return r, 0, nil
}

func retryable(status int) bool {
	return status == http.StatusTooManyRequests || status == http.StatusRequestTimeout || status >= 500
}

// retryAfter reads a Retry-After header (seconds or an HTTP date), capped at limit; 0 when
// absent or unreadable.
func retryAfter(resp *http.Response, limit time.Duration) time.Duration {
	if resp == nil {
		return 0
	}
	h := strings.TrimSpace(resp.Header.Get("Retry-After"))
	if h == "" {
		return 0
	}
	var d time.Duration
	if secs, err := strconv.ParseFloat(h, 64); err == nil && secs >= 0 {
		d = time.Duration(secs * float64(time.Second))
	} else if t, err := http.ParseTime(h); err == nil {
		d = time.Until(t)
	}
	if d <= 0 {
		return 0
	}
	return min(d, limit)
}

// backoff is exponential with full jitter: uniform in [0, min(max, base*2^attempt)].
func (c *OpenAIClient) backoff(attempt int) time.Duration {
	ceil := c.cfg.RetryBase.Duration << min(attempt, 20)
	if ceil <= 0 || ceil > c.cfg.RetryMax.Duration {
		ceil = c.cfg.RetryMax.Duration
	}
	return time.Duration(rand.Int64N(int64(ceil) + 1))
}

// redact removes the API key from an error's text, wherever an endpoint may have echoed it.
func (c *OpenAIClient) redact(err error) error {
	if err == nil || c.key == "" || !strings.Contains(err.Error(), c.key) {
		return err
	}
	return errors.New(strings.ReplaceAll(err.Error(), c.key, "[redacted]"))
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Limiter spaces requests evenly to stay under a requests-per-minute limit.
type Limiter struct {
	mu       sync.Mutex
	interval time.Duration
	next     time.Time
}

// NewLimiter allows rpm requests a minute (no limit when rpm <= 0).
func NewLimiter(rpm float64) *Limiter {
	if rpm <= 0 {
		return &Limiter{}
	}
	return &Limiter{interval: time.Duration(float64(time.Minute) / rpm)}
}

func (l *Limiter) Wait(ctx context.Context) error {
	if l.interval == 0 {
		return nil
	}
	l.mu.Lock()
	now := time.Now()
	at := l.next
	if at.Before(now) {
		at = now
	}
	l.next = at.Add(l.interval)
	l.mu.Unlock()
	if d := time.Until(at); d > 0 {
		return sleepCtx(ctx, d)
	}
	return nil
}
