// Command fitrescore fits the second stage's model (rescore/model.json)
// on the dev query sets, and shows by leaving each set out in turn that
// the fit generalises.
//
//	go run ./internal/eval/fitrescore -o rescore/model.json   # fit on every dev set
//	go run ./internal/eval/fitrescore -loso                   # the leave-one-set-out table
//	go run ./internal/eval/fitrescore -quick -cache DIR       # the same read from kept samples, in seconds
//	go run ./internal/eval/fitrescore -quick -everyday hybrid=0 -terms hybrid=0 -cache DIR
//	                                   # fitted without everyday and one-word queries
//
// It needs the local model (`mdsearch setup`) and the shared corpora
// ($MDSEARCH_CORPORA, else ../shared/corpora).
//
// Beside the engine, room 6 of the pipeline (docs/architecture.md): it
// makes the second stage's model, which package rescore embeds.
package main
