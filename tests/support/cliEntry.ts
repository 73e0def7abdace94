// The CLI bundle's entry (tests/support/serverBundle.ts): what `tsx server/cli.ts …` does when run
// directly. In a bundle server/cli.ts cannot tell that it was (its own URL is its source's there).
import { main } from '../../server/cli.ts'

process.exitCode = await main(process.argv.slice(2))
