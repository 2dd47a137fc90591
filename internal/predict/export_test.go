package predict

// Read reads a prediction file, detecting its format, however many items it holds (the
// tests' reader; production reads through ReadFor, which bounds them).
func Read(path string) (*Set, error) { return ReadFormat(path, "") }

// ReadFormat reads a prediction file in the given format ("" or "auto": detected).
func ReadFormat(path, format string) (*Set, error) { return readFormat(path, format, itemCap{}) }
