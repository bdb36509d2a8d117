package store

import "github.com/mdsearch/mdsearch/embed"

// KeywordVersion numbers how text is prepared for the keyword index (see
// KeywordText). Text indexed under another version must be indexed again:
// queries are built for this one.
//
// Changelog:
//
//	1: every character of a script written without spaces between words
//	   (Han, kana, Hangul, Thai, Lao, Khmer, Myanmar) is a word of its own.
const KeywordVersion = 1

// KeywordText is s as the keyword index takes it in: every character of a
// script written without spaces a word of its own (embed.SpaceUnspaced).
// FTS5's unicode61 tokenizer would otherwise read a whole run of them, up
// to the next space or punctuation mark, as one word.
func KeywordText(s string) string { return embed.SpaceUnspaced(s) }
