//go:build !unix

package pgtest

// keepInheritedFilesHere: elsewhere than Unix a started program inherits
// only what is passed to it.
func keepInheritedFilesHere() {}
