import Foundation
import StudentList

// students [--db PATH] [--no-animation]: exits with the list's status (0, or 128 + a signal); the Students tutorial.
exit(StudentList.program.run())
