//! The order of rows in rounds: every row of a comparison runs once per round, in an order that
//! rotates from round to round (and runs backwards every other round), so that no row always
//! runs first, last or after the same neighbour, and a slow minute of the machine falls on every
//! row alike. The seed suite's rounds (`seed::rounds`) and the interleaved clients of the
//! negotiation benchmark ([`crate::negotiation`]) both order their rows by it.

/// The order of `rows` rows in round `round`: round r starts with row r mod rows, then goes
/// forward (even rounds) or backward (odd rounds) around the circle. With two rows it
/// alternates which one goes first.
pub fn order(rows: usize, round: usize) -> Vec<usize> {
    if rows == 0 {
        return Vec::new();
    }
    let start = round % rows;
    (0..rows).map(|j| if round.is_multiple_of(2) { (start + j) % rows } else { (start + rows - j) % rows }).collect()
}
