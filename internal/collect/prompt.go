package collect

import (
	"embed"
	"fmt"
	"strings"
	"text/template"

	"github.com/nl2sqlbench/nl2sqlbench/internal/safefile"
)

//go:embed prompts/*.tmpl
var defaultPrompts embed.FS

// Prompt names: the embedded defaults are prompts/<name>.tmpl.
const (
	promptSchema      = "schema_selection"
	promptPreliminary = "preliminary_sql"
	promptGenerate    = "candidate_generation"
	promptRevise      = "query_revision"
	promptRetry       = "retry_failed"
	promptSecond      = "second_pass"
)

// sqlppPrefix names the SQL++ variant of a default prompt: prompts/sqlpp_<name>.tmpl.
const sqlppPrefix = "sqlpp_"

// PromptData is what a prompt template sees.
type PromptData struct {
	Dialect  string // "SQLite" or "SQL++"
	Schema   string // CREATE TABLE statements, or SQL++ document shapes, with sample values
	Evidence string
	Question string
	SQL      string // revision: the query to fix
	Feedback string // revision: what went wrong ("it failed with: no such column: x")
	// Second pass of a two-pass run: the first pass's query and what became of it ("it
	// failed with: ...", "it returned 3 rows that differ from the expected answer"),
	// never the gold SQL or gold rows. Empty when unknown.
	PreviousSQL     string
	PreviousOutcome string
}

// prompts holds the parsed templates of a run.
type prompts map[string]*template.Template

// loadPrompts parses the embedded templates, replacing each one the config overrides with
// the file it names (relative paths are relative to the config file).
func loadPrompts(c *Config) (prompts, error) {
	override := map[string]string{}
	if c.SecondPass != nil {
		override[promptSecond] = c.SecondPass.Prompt
	}
	switch c.Pipeline.SchemaSelection.Strategy {
	case SchemaLLM:
		override[promptSchema] = c.Pipeline.SchemaSelection.Prompt
	case SchemaPreliminarySQL:
		override[promptPreliminary] = c.Pipeline.SchemaSelection.Prompt
	}
	override[promptGenerate] = c.Pipeline.CandidateGeneration.Prompt
	switch c.Pipeline.QueryRevision.Strategy {
	case ReviseExecution:
		override[promptRevise] = c.Pipeline.QueryRevision.Prompt
	case ReviseRetryFailed:
		override[promptRetry] = c.Pipeline.QueryRevision.Prompt
	}
	p := prompts{}
	prefix := ""
	if c.SQLPP() {
		prefix = sqlppPrefix
	}
	for _, name := range []string{promptSchema, promptPreliminary, promptGenerate, promptRevise, promptRetry, promptSecond} {
		src, from := "", "prompts/"+prefix+name+".tmpl"
		if path := override[name]; path != "" {
			path = c.resolve(path)
			b, err := safefile.ReadFile(path, MaxConfigFile)
			if err != nil {
				if name == promptSecond {
					return nil, fmt.Errorf("second_pass.prompt: %w", err)
				}
				return nil, fmt.Errorf("prompt template: %w", err)
			}
			src, from = string(b), path
		} else {
			b, err := defaultPrompts.ReadFile(from)
			if err != nil {
				return nil, fmt.Errorf("prompt template: %w", err)
			}
			src = string(b)
		}
		t, err := template.New(from).Option("missingkey=error").Parse(src)
		if err != nil {
			return nil, fmt.Errorf("prompt template %s: %v: %w", from, err, ErrBadConfig)
		}
		// Catch a template that uses a field PromptData does not have now, not mid-run.
		if err := t.Execute(new(strings.Builder), PromptData{}); err != nil {
			return nil, fmt.Errorf("prompt template %s: %v: %w", from, err, ErrBadConfig)
		}
		p[name] = t
	}
	// The task prompt has no override (Config.CheckTasks refuses one).
	b, err := defaultPrompts.ReadFile("prompts/" + promptTask + ".tmpl")
	if err != nil {
		return nil, fmt.Errorf("prompt template: %w", err)
	}
	t, err := template.New(promptTask).Option("missingkey=error").Parse(string(b))
	if err != nil {
		return nil, fmt.Errorf("prompt template %s: %v: %w", promptTask, err, ErrBadConfig)
	}
	if err := t.Execute(new(strings.Builder), TaskTurn{Previous: &Exchange{}, Knowledge: []KnowledgeEntry{{}}}); err != nil {
		return nil, fmt.Errorf("prompt template %s: %v: %w", promptTask, err, ErrBadConfig)
	}
	p[promptTask] = t
	return p, nil
}

func (p prompts) render(name string, d PromptData) (string, error) {
	var b strings.Builder
	if err := p[name].Execute(&b, d); err != nil {
		return "", fmt.Errorf("render prompt %s: %w", name, err)
	}
	return strings.TrimSpace(b.String()) + "\n", nil
}
