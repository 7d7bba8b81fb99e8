from gateway.operations.cli import main

main()
