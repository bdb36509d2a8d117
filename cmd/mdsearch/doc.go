// Command mdsearch indexes folders of markdown and searches them by section.
//
// Room 7 of the pipeline (docs/architecture.md): the binary of the cli
// adapter, which does all the work.
package main
