// Package provider opens the configured Embedder: the local model
// (embed/sentenceencoder, the default), an Ollama or OpenAI-compatible server
// (embed/remote), or none, for keyword-only use.
//
// Settings come from the environment (FromEnv), overridden by the flags
// every command that embeds shares (Config.AddFlags):
//
//	--embedder     MDSEARCH_EMBEDDER       use | ollama | openai | none
//	--embed-url    MDSEARCH_EMBED_URL      server base URL
//	--embed-model  MDSEARCH_EMBED_MODEL    server-side model name
//	               MDSEARCH_EMBED_API_KEY  bearer token (OPENAI_API_KEY for openai)
//	               MDSEARCH_EMBED_DIM      expected dimension (remote; checked before an index run records it; else the index's, or probed)
//	               MDSEARCH_EMBED_BATCH    texts per call
//	               MDSEARCH_EMBED_MAX_TOKENS  remote window (default 512; the CLI takes the index's)
//	               MDSEARCH_EMBED_TIMEOUT  per request while indexing, e.g. 30s (remote; default 60s)
//	               MDSEARCH_EMBED_QUERY_TIMEOUT  a search's query in all (remote; default 5s)
//	               MDSEARCH_EMBED_PARALLEL calls the server works on at once (remote; default 1)
//	--threads      MDSEARCH_THREADS        inference threads in all (use)
//	--precision    MDSEARCH_PRECISION      int8 (default) | float32 (use)
//	--ort-lib      MDSEARCH_ORT_LIB        libonnxruntime.so.1 (use)
//	--model-dir    MDSEARCH_MODEL_DIR      USE-lite model directory (use)
//
// Room 4 of the pipeline (docs/architecture.md): it picks the embedder the
// engine, the adapters and eval use.
package provider
