"""The admin API's answers as the gateway encodes them, one module per view; the console's
TypeScript types are written from them (`gateway.console.schema`)."""
