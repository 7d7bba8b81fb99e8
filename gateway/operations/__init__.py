"""Operations, on top of everything: how the process is run. The command line (`cli`:
`python -m gateway`), the supervisor of `--workers N` (`workers`) and the uvicorn server both
run (`servers`)."""
