import Foundation
import HeroList

// heroes [--db PATH] [--no-animation]: exits with the list's status (0, or 128 + a signal); the HeroList tutorial.
exit(HeroList.program.run())
