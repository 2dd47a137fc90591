// Package demo holds a small benchmark written for nl2sqlbench, embedded in the binary, so
// that `nl2sqlbench demo` can show every verdict and every error category on a machine that
// has nothing but the program: two SQLite databases (as SQL scripts), about fifty questions
// with gold SQL, and the outputs of three made-up systems in NL2SQLBench's record formats.
// Every row, question and answer was written for this project; none comes from a benchmark.
//
// Materialize turns the embedded files into plain files in the layout the JSONL dataset
// loader and the prediction readers expect (the scripts built into SQLite databases), in a
// cache directory named after a hash of the embedded content, so an unchanged demo is
// reused and an edited one is rebuilt. The demo therefore runs through exactly the same
// loaders as real data.
//
// To extend the demo:
//   - a database: add data/sql/<db_id>.sql (CREATE TABLE ... then INSERT ...);
//   - a question: add a line to data/questions.jsonl, and a record for it to every file in
//     data/systems/ (the tests check that every system answers every question);
//   - a system: add data/systems/<name>.jsonl, flat records or module nodes.
//
// demo_test.go's outcome table names which question/system pair shows which verdict or
// error category; keep it in step when changing an answer.
//
// GenerateLarge (large.go) writes gen-large's synthetic benchmark, a generated shop
// database at any size with fast and slow correct predictions, for timing VES and R-VES.
package demo
