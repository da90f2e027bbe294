package manystores

// openFilesLimit: Windows sets no small limit on a process's handles.
func openFilesLimit() int { return 1 << 30 }
