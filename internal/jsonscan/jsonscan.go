// Package jsonscan walks the members and values of valid JSON documents
// (parts of a document already decoded) without decoding them again: the
// output's field picking and the shop client's row ids read them this way.
package jsonscan

// EachMember calls fn with the raw key literal and raw value of each member
// of a valid JSON object, which starts at obj[0], until fn returns false.
func EachMember(obj []byte, fn func(rawKey, value []byte) bool) {
	i := SkipSpace(obj, 1)
	if obj[i] == '}' {
		return
	}
	for {
		keyEnd := SkipValue(obj, i)
		rawKey := obj[i:keyEnd]
		i = SkipSpace(obj, keyEnd)
		i = SkipSpace(obj, i+1) // past ':'
		end := SkipValue(obj, i)
		if !fn(rawKey, obj[i:end]) {
			return
		}
		i = SkipSpace(obj, end)
		if obj[i] == '}' {
			return
		}
		i = SkipSpace(obj, i+1) // past ','
	}
}

// SkipValue returns the index just past the valid JSON value starting at i.
func SkipValue(v []byte, i int) int {
	depth := 0
	for ; i < len(v); i++ {
		switch v[i] {
		case '"':
			i = skipString(v, i)
		case '{', '[':
			depth++
			continue
		case '}', ']':
			depth--
		default:
			if depth == 0 {
				// A scalar: runs to the next delimiter.
				for i < len(v) && !endsScalar(v[i]) {
					i++
				}
				return i
			}
			continue
		}
		if depth == 0 {
			return i + 1
		}
	}
	return i
}

func endsScalar(c byte) bool {
	switch c {
	case ',', '}', ']', ' ', '\t', '\r', '\n':
		return true
	}
	return false
}

// skipString returns the index of the closing quote of the string opening
// at i.
func skipString(v []byte, i int) int {
	for i++; i < len(v); i++ {
		switch v[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return i
}

// SkipSpace returns the index of the first byte from i on that is not JSON
// white space.
func SkipSpace(v []byte, i int) int {
	for i < len(v) && (v[i] == ' ' || v[i] == '\t' || v[i] == '\r' || v[i] == '\n') {
		i++
	}
	return i
}
