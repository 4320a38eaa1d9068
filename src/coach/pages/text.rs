//! The words of the technique pages, one entry per row of the technique table, written for
//! termdoku: what the pattern is, why its removal (or placement) holds, how to spot it.
//! "House" means any group of cells that holds distinct digits: a row, column, box,
//! diagonal, jigsaw region, honeycomb line or killer cage.

/// The three parts of a technique's page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PageText {
    pub id: &'static str,
    /// What the pattern is.
    pub pattern: &'static str,
    /// Why the removal or placement it makes holds.
    pub why: &'static str,
    /// How to spot it on a board.
    pub spot: &'static str,
}

const fn p(
    id: &'static str,
    pattern: &'static str,
    why: &'static str,
    spot: &'static str,
) -> PageText {
    PageText {
        id,
        pattern,
        why,
        spot,
    }
}

/// Fish in general: `n` lines, `n` crossing lines.
const FISH_WHY: &str = "Each base line must hold the digit once, and all of its places lie in \
the cover lines; n base lines therefore put n copies of the digit into the n cover lines, \
which is every copy those lines can hold. No other cell of a cover line can have it.";

/// Finned fish in general.
const FIN_WHY: &str = "Either the fish without its fins is real, and then the cover lines \
lose the digit everywhere outside the base lines; or one of the fin cells holds the digit. \
A cell that lies in a cover line and sees every fin is cleared in both cases.";

/// Uniqueness arguments in general.
const UNIQUE_WHY: &str = "Four cells in two rows, two columns and exactly two boxes that held \
only the same two digits could swap them and give a second solution. A proper puzzle has \
one solution, so the position must avoid that deadly pattern.";

/// Siamese fish in general: two finned fish read as one step.
const SIAMESE_WHY: &str = "Each of the two fish holds on its own: either its body is real and \
its cover lines lose the digit, or one of its fins holds it. Both fish stand on the same base \
lines of the same digit, so the step simply applies the removals of both at once.";

/// Templates in general.
const TEMPLATE_WHY: &str = "In the solution every digit fills exactly one cell of each row, \
column and box: one of the digit's templates. A template that would need a cell where the \
digit is no longer a candidate, or that clashes with a placed copy, cannot be the answer; \
what holds for every template that is left holds for the solution.";

pub static PAGES: &[PageText] = &[
    p(
        "full-house",
        "A house with one empty cell left.",
        "The house holds each of its digits once; all but one are placed, so the empty cell \
         takes the missing digit.",
        "Scan rows, columns and boxes that are almost full; count to the digit that is absent.",
    ),
    p(
        "naked-single",
        "An empty cell with one candidate left.",
        "Every other digit is ruled out, placed in one of the cell's houses or removed by an \
         earlier step, so the remaining candidate is the only digit that fits there.",
        "Look at crowded crossings: a cell whose row, column and box together hold eight \
         different digits. With pencil marks, a cell showing a single mark.",
    ),
    p(
        "hidden-single",
        "A digit that has only one possible cell left in a house, although that cell may \
         still have other candidates.",
        "The house must hold the digit somewhere; every other cell of the house already sees \
         that digit or is filled, so it goes in the only cell left.",
        "Pick a digit, follow where it is placed, and look for a box or line where the lines \
         those copies cover leave one free cell.",
    ),
    p(
        "run-range",
        "A honeycomb line whose digits form a run of consecutive numbers, as long as the line, \
         and a digit or candidate range already fixed inside it.",
        "If a line of L cells must contain a digit at least a and one at most b, its run lies \
         between a-L+1 and b+L-1; candidates outside that range cannot be part of the run.",
        "Start from the digits placed on a run line, add and subtract its length minus one, and \
         strike every candidate beyond that window.",
    ),
    p(
        "cage-combination",
        "A killer cage whose sum and size allow only a few sets of distinct digits.",
        "The cage holds distinct digits adding to its sum. A candidate that belongs to no set \
         which still fits the cells (each cell taking a digit of the set it can hold) cannot \
         be in its cell.",
        "List the sets for small or extreme cages first (two cells summing to 3 or 17, three \
         cells summing to 6 or 24), then keep only the sets the candidates allow.",
    ),
    p(
        "locked-pair",
        "Two cells in the intersection of a box and a line holding the same two candidates \
         and nothing else.",
        "The two digits must occupy the two cells, which belong to both the box and the line; \
         no other cell of the box or of the line can hold either digit.",
        "Look for a bivalue pair lying in one box and one row or column at once: it clears \
         both houses in one go.",
    ),
    p(
        "locked-triple",
        "Three cells in the intersection of a box and a line whose candidates together are \
         only three digits.",
        "Three cells with three digits between them must use all three; since the cells lie \
         in both the box and the line, the rest of both houses loses those digits.",
        "Look at a box-line intersection of three empty cells with few candidates each.",
    ),
    p(
        "locked-candidates-pointing",
        "Inside one box, a digit's candidates all lie on a single row or column.",
        "The box must hold the digit in one of those cells, so the row or column gets its copy \
         from this box; the line's cells outside the box cannot hold it.",
        "Go box by box and digit by digit: two or three marks lined up inside a box point \
         along their line.",
    ),
    p(
        "locked-candidates-claiming",
        "Inside one row or column, a digit's candidates all lie in a single box.",
        "The line must hold the digit in that box, so the box's copy is on this line; the \
         box's cells off the line cannot hold it.",
        "Go line by line: when a digit's marks in a line crowd into one box, clear the rest \
         of that box.",
    ),
    p(
        "run-sequence-enumeration",
        "A honeycomb run line whose possible runs are listed one by one against the \
         candidates.",
        "A run survives only if its digits can be given to the line's cells, one each, from \
         the cells' candidates. A candidate that no surviving run places in its cell is \
         impossible.",
        "On a short or well-filled run line, write down the runs of its length that contain \
         the placed digits and check which cells each digit could reach.",
    ),
    p(
        "innie-outie",
        "A row, column or box (or a band of neighbouring ones) whose digits add up to a known \
         total, partly covered by cages.",
        "The houses of a region sum to 45 each; subtracting the cages wholly inside leaves the \
         sum of the few remaining cells (innies), or the cages sticking out give the sum of \
         their cells outside (outies). Those cells keep only candidates some such sum uses.",
        "Add up the cages inside a row, column, box or band; when one or two cells are left \
         over on either side of its edge, their sum is fixed.",
    ),
    p(
        "naked-pair",
        "Two cells of a house with the same two candidates and no others.",
        "Those two digits must go in those two cells, one each, so no other cell of the house \
         can have them.",
        "Look for two identical two-digit marks in a row, column or box.",
    ),
    p(
        "naked-triple",
        "Three cells of a house whose candidates together are only three digits (each cell \
         may show two or three of them).",
        "Three cells need three different digits and can only choose among these three, so \
         they use all three; the rest of the house loses them.",
        "Look for three cells of a house with small marks drawn from the same three digits, \
         such as 12, 23 and 13.",
    ),
    p(
        "hidden-pair",
        "Two digits that, within a house, can only go in the same two cells.",
        "Both digits must appear in the house and only these two cells can take them, so the \
         two cells hold exactly these digits; their other candidates go.",
        "For each house, note which digits have exactly two places; two digits sharing the \
         same two places form the pair.",
    ),
    p(
        "hidden-triple",
        "Three digits whose places in a house are confined to the same three cells.",
        "Three digits need three cells and have only these three, so the cells are filled by \
         them; any other candidate in those cells goes.",
        "List the digits of a house with two or three places; look for three whose places \
         together cover only three cells.",
    ),
    p(
        "naked-quadruple",
        "Four cells of a house whose candidates together are only four digits.",
        "Four cells need four different digits and can only choose among these four, so the \
         other cells of the house lose them.",
        "In a house with many empty cells, look for four with small marks drawn from the same \
         four digits; the complement of a naked quadruple is often a hidden subset.",
    ),
    p(
        "hidden-quadruple",
        "Four digits whose places in a house are confined to the same four cells.",
        "Four digits must fill four cells of the house and only these cells can take them, \
         so those cells hold nothing else.",
        "Rare: look for a house where four digits have few places, all inside the same four \
         cells.",
    ),
    p(
        "hall-set",
        "In a house with distinct digits (often a cage or a run line), k cells that between \
         them can only take k digits, of any size.",
        "The k cells need k different digits and have only these to choose from, so the \
         digits are used up there; no other cell of the house can hold them. This is the \
         naked subset rule taken to any size and to houses that need not hold every digit.",
        "In a long cage or run line, group the cells by their candidates and count: as many \
         cells as digits between them closes the group.",
    ),
    p(
        "run-pair-enumeration",
        "Two crossing honeycomb run lines whose possible runs are listed together.",
        "A pair of runs survives only if both can be placed at once, with every two cells that \
         see each other holding different digits. A candidate no surviving pair places is \
         impossible.",
        "Where two run lines cross on a cell with few candidates, try each run of one line \
         and see what it leaves for the other.",
    ),
    p(
        "line-fish",
        "A digit that k honeycomb lines of one direction must each hold, with all their \
         places for it on k lines of another direction.",
        "Lines of one direction never meet, so the k base lines hold k copies of the digit \
         in k different cells; the k cover lines hold it once at most, so each holds exactly \
         one, inside the base lines: the digit goes from their other cells, and each cover \
         line must hold a run containing it.",
        "Start with 5 (every line holds it) and with 4 and 6 (every line of six cells or \
         more): find lines of one direction whose places for the digit fall on as many lines \
         of another direction.",
    ),
    p(
        "run-triple-enumeration",
        "Three honeycomb lines that cross each other (a row, a / line and a \\ line), at \
         least one a run line, whose possible runs are listed together.",
        "The three lines must be filled at once: each run line with distinct consecutive \
         digits, and every two of their cells that see each other with different digits. \
         A candidate that no joint filling of the three lines places is impossible.",
        "Look for a triangle of lines, or three lines through one cell, where the crossing \
         cells have few candidates: the run each line holds limits what the others can hold.",
    ),
    p(
        "x-wing",
        "A digit that, in two parallel lines (the base), has its places in the same two \
         crossing lines (the cover).",
        FISH_WHY,
        "Pick a digit and find two rows where it has exactly two places in the same two \
         columns (or two columns sharing two rows): the four cells form a rectangle.",
    ),
    p(
        "swordfish",
        "A digit that, in three parallel lines, has all its places within the same three \
         crossing lines.",
        FISH_WHY,
        "Pick a digit and list its columns in each row with two or three places; three rows \
         whose lists together name only three columns form the fish.",
    ),
    p(
        "jellyfish",
        "A digit that, in four parallel lines, has all its places within the same four \
         crossing lines.",
        FISH_WHY,
        "Rare: look for four lines where a digit has few places, all inside four crossing \
         lines; its complement in the other lines is often a smaller fish.",
    ),
    p(
        "remote-pair",
        "A chain of cells that all hold the same two candidates, each seeing the next.",
        "Along the chain the two digits alternate; two cells an odd number of links apart hold \
         different digits, so between them they hold both. A cell seeing both loses the two \
         digits.",
        "Follow identical two-digit marks from cell to cell; when the chain has four cells or \
         more, look at cells that see an even-position and an odd-position cell.",
    ),
    p(
        "bug-plus-1",
        "Every empty cell has two candidates except one with three (a Bivalue Universal \
         Grave plus one).",
        "If the three-candidate cell lost its extra digit, every cell would be bivalue and \
         each digit would appear twice in each house, a pattern with either no or two \
         solutions. The cell must hold the digit that appears three times in its houses.",
        "When the board is almost all pairs, find the one cell with three marks; place the \
         digit that shows up three times in its row, column or box.",
    ),
    p(
        "skyscraper",
        "A digit with exactly two places in each of two parallel lines, where one end of each \
         lines up on a common crossing line and the other two ends do not.",
        "One of the two lined-up ends does not hold the digit (they see each other), so at \
         least one of the two loose ends (the roof) does. A cell seeing both loose ends \
         cannot hold it.",
        "Look for two conjugate pairs of one digit in parallel lines, offset like two towers \
         of different height.",
    ),
    p(
        "2-string-kite",
        "A digit with two places in a row and two in a column, where one end of the row's pair \
         and one end of the column's pair share a box.",
        "The two ends in the box cannot both hold the digit, so one of the far ends does. A \
         cell that sees both far ends loses the digit.",
        "Find a row and a column each holding the digit exactly twice, meeting through one \
         box; check the cell where the far ends' row and column cross.",
    ),
    p(
        "turbot-fish",
        "A digit linked in a chain of three: a strong link (only two places in a house), a \
         weak link (two cells that see each other), and another strong link.",
        "Start at one end: if it lacks the digit, its partner has it, the next cell cannot, \
         and the far end must. So one of the two ends holds the digit; cells seeing both lose \
         it.",
        "Join two conjugate pairs of the same digit by two cells that share a house; the \
         skyscraper and the kite are its common shapes.",
    ),
    p(
        "empty-rectangle",
        "A box where a digit's places all lie on one row and one column of the box (leaving \
         an empty rectangle of cells), together with a conjugate pair of the digit in a line \
         outside the box.",
        "The box's copy is on its row or its column. Following the conjugate pair from the \
         end that the box's line sees, the digit lands either in that row or column of the \
         box or at the pair's other end, which empties the cell where both lines cross.",
        "In a box where a digit forms an L or a cross, look for a line outside it with two \
         places of the digit, one of them in line with the box's row or column.",
    ),
    p(
        "w-wing",
        "Two cells with the same two candidates a and b that do not see each other, and a \
         strong link on b whose ends see one cell each.",
        "The strong link puts b next to one of the two cells, so that cell is a; either way \
         one of the two cells holds a. A cell that sees both loses a.",
        "Find identical bivalue cells far apart, then a house where the other digit has only \
         two places, each in line with one of them.",
    ),
    p(
        "xy-wing",
        "A pivot cell with candidates x and y, a pincer with x and z, and a pincer with y and \
         z, each pincer seeing the pivot.",
        "Whichever digit the pivot takes, one pincer loses it and must be z. So z is in one of \
         the pincers, and a cell seeing both pincers cannot be z.",
        "From a bivalue cell, look at bivalue cells it sees that share one digit each with it \
         and a common third digit between them.",
    ),
    p(
        "xyz-wing",
        "A pivot with x, y and z, a pincer with x and z, and a pincer with y and z, each \
         pincer seeing the pivot.",
        "If the pivot is x or y, one pincer is z; if the pivot is z, it is z itself. A cell \
         that sees the pivot and both pincers cannot be z.",
        "Like an XY-wing whose pivot also has z; eliminations only land in the pivot's box \
         or line where all three meet.",
    ),
    p(
        "unique-rectangle-1",
        "Four cells at the corners of a rectangle in two boxes, three holding only a and b, \
         the fourth holding a, b and more.",
        UNIQUE_WHY,
        "Look for three corners with the same pair; remove the pair from the fourth corner, \
         which must take one of its extras.",
    ),
    p(
        "unique-rectangle-2",
        "A rectangle in two boxes whose floor cells hold only a and b while the two roof \
         cells hold a, b and one same extra digit x.",
        UNIQUE_WHY,
        "Two cells with the same three digits next to a matching pair: one roof cell must be \
         x, so cells seeing both roof cells lose x.",
    ),
    p(
        "unique-rectangle-3",
        "A rectangle whose two roof cells carry extra digits; together the extras behave like \
         one extra cell that forms a naked subset with other cells of a house the roof shares.",
        UNIQUE_WHY,
        "One roof cell must take an extra digit, so the roof counts as a single cell with \
         the extras as candidates; find the subset it completes and clear the rest of that \
         house.",
    ),
    p(
        "unique-rectangle-4",
        "A rectangle whose roof cells lie in one house where one of the pair's digits, say \
         a, has no other place.",
        UNIQUE_WHY,
        "a must be in one roof cell; if the other roof cell took b, the corners would all be \
         a or b. So b goes from both roof cells.",
    ),
    p(
        "unique-rectangle-5",
        "A rectangle where two or three cells hold the pair plus the same single extra digit \
         x, the rest only the pair.",
        UNIQUE_WHY,
        "One of the cells with the extra must be x, so a cell seeing all of them loses x.",
    ),
    p(
        "unique-rectangle-6",
        "A rectangle where two diagonal cells hold the pair only, the other two carry extras, \
         and digit a appears in both rows and both columns only at the corners.",
        UNIQUE_WHY,
        "a sits on two diagonal corners (an X-wing on the rectangle); if it took the two \
         cells with extras, the pair-only cells would be b and the rectangle deadly. So the \
         extra-holding corners lose a.",
    ),
    p(
        "hidden-rectangle",
        "A rectangle with one pair-only corner where, in the row and column of the opposite \
         corner, digit a has no places outside the rectangle.",
        UNIQUE_WHY,
        "If the opposite corner took b, a would be forced into the other two corners and the \
         rectangle would hold only a and b. So the opposite corner loses b.",
    ),
    p(
        "avoidable-rectangle-1",
        "A rectangle in two boxes where three corners were filled by you (not givens) with a, \
         b and a, and the fourth is empty.",
        "Digits you placed could be swapped in a second solution if the fourth corner were b, \
         since no given pins them down. The puzzle has one solution, so the fourth corner is \
         not b.",
        "Look at rectangles of your own entries with two digits; the empty corner that would \
         close the swap loses that digit.",
    ),
    p(
        "avoidable-rectangle-2",
        "A rectangle with two corners you filled with a and b, and two empty corners holding \
         b plus x and a plus x.",
        "If neither empty corner were x, the rectangle would be swappable; so one of them is \
         x, and a cell seeing both loses x.",
        "Next to two of your entries, look for two cells sharing one extra digit.",
    ),
    p(
        "finned-x-wing",
        "An X-wing with extra places of the digit (fins) in one base line, all inside one box \
         that also holds a corner.",
        FIN_WHY,
        "Find an almost-X-wing whose odd places crowd around one corner; clear the cells of \
         that corner's box in the cover line.",
    ),
    p(
        "sashimi-x-wing",
        "A finned X-wing with one corner missing: the base line with fins has its cover place \
         empty, the fins standing in for it.",
        FIN_WHY,
        "A skyscraper-like shape where one end sits in a box with more places: the cells of \
         that box in the cover line, seeing the fins, lose the digit.",
    ),
    p(
        "finned-swordfish",
        "A swordfish with fins: extra places of the digit in a base line, all inside one box.",
        FIN_WHY,
        "Find three lines that would form a swordfish but for a few places in one box; only \
         cells of that box in a cover line are cleared.",
    ),
    p(
        "sashimi-swordfish",
        "A finned swordfish in which a base line's cover place is missing, the fins taking \
         its role.",
        FIN_WHY,
        "As for a finned swordfish, but the fish without the fins would be degenerate; the \
         eliminations are the same cells seeing every fin.",
    ),
    p(
        "finned-jellyfish",
        "A jellyfish with fins in one box.",
        FIN_WHY,
        "Rare: four base lines that fit four cover lines but for places in one box.",
    ),
    p(
        "sashimi-jellyfish",
        "A finned jellyfish with a missing corner, the fins standing in for it.",
        FIN_WHY,
        "Rare: the same search as a finned jellyfish, allowing a base line whose cover place \
         is gone.",
    ),
    p(
        "sue-de-coq",
        "Two or three cells where a box meets a line, holding between them two more digits \
         than cells, plus a cell or group in the rest of the line and one in the rest of the \
         box that use up those extra digits.",
        "The intersection cells take digits from both sides: some the line's helper must also \
         hold and some the box's helper holds. The digits are locked into the two groups, so \
         the rest of the line loses the line group's digits and the rest of the box the box \
         group's.",
        "Look at a crowded box-line intersection with many candidates, then for bivalue cells \
         in its line and box that each cover part of them without sharing a digit.",
    ),
    p(
        "simple-colors-trap",
        "The conjugate pairs of one digit (houses where it has two places) joined into a \
         chain, coloured alternately with two colours.",
        "In a chain of conjugate pairs one colour holds the digit everywhere and the other \
         nowhere. A cell that sees a cell of each colour sees the digit in any case, so it \
         loses it.",
        "Colour a digit's conjugate pairs in two colours; look for uncoloured cells that see \
         both colours.",
    ),
    p(
        "simple-colors-wrap",
        "A coloured chain of one digit's conjugate pairs in which two cells of the same \
         colour see each other.",
        "Two cells of one house cannot both hold the digit, so that colour is false: every \
         cell of that colour loses the digit (and the other colour holds it).",
        "While colouring, watch for a house containing the same colour twice.",
    ),
    p(
        "multi-colors-1",
        "Two separately coloured clusters of one digit, where a colour of one cluster sees a \
         colour of the other.",
        "Those two colours cannot both be true, so at least one of their opposites is. A cell \
         that sees both opposite colours loses the digit.",
        "After colouring several clusters, look for a cell of one cluster seeing a cell of \
         another.",
    ),
    p(
        "multi-colors-2",
        "Two coloured clusters of one digit where one colour of the first sees both colours of \
         the second.",
        "One colour of the second cluster is true, and the first colour sees it either way, so \
         the first colour is false: its cells lose the digit.",
        "Look for a colour whose cells see both colours of another cluster.",
    ),
    p(
        "x-chain",
        "A chain on one digit alternating strong links (a house with two places) and weak \
         links (cells seeing each other), starting and ending with a strong link.",
        "If the first end lacks the digit, the strong links and weak links force it into the \
         last end; so one of the two ends holds the digit. Cells seeing both ends lose it.",
        "Extend a turbot fish: hop from conjugate pair to conjugate pair of one digit.",
    ),
    p(
        "xy-chain",
        "A chain of bivalue cells, each seeing the next and sharing one digit with it, whose \
         two ends both hold a digit z.",
        "If the first cell is not z, it is its other digit, which the next cell then lacks, \
         and so on; the last cell ends up z. So one end is z; cells seeing both ends lose z.",
        "Walk from a bivalue cell through bivalue cells, each time leaving by the digit you \
         did not enter with, until you meet z again.",
    ),
    p(
        "nice-loop",
        "A closed loop of candidates joined by alternating strong and weak links, possibly \
         changing digits inside bivalue cells.",
        "In a loop whose links alternate properly, every weak link holds exactly one true end, \
         so other candidates seeing both ends of a weak link go. Where two links of the same \
         kind meet at a candidate, that candidate is forced true (two strong) or false (two \
         weak).",
        "Build chains of strong links (conjugate pairs, bivalue cells) and see whether one \
         returns to its start.",
    ),
    p(
        "aic",
        "An alternating inference chain: candidates joined by strong and weak links in turn, \
         starting and ending on a strong link, not closed into a loop.",
        "At least one end of the chain is true. If both ends are the same digit, cells seeing \
         both lose it; if the ends are two digits of one cell, that cell loses its other \
         candidates; other shapes remove what sees both ends.",
        "Mix digit links and cell links: step along conjugate pairs and bivalue cells, and \
         stop when the two ends see a common candidate.",
    ),
    p(
        "grouped-nice-loop",
        "A nice loop in which some nodes are groups: the two or three places of a digit where \
         a box meets a line, taken together.",
        "A group acts as one candidate: it is true when the digit is in any of its cells. The \
         loop's reasoning holds unchanged.",
        "Where a digit's places in a line sit inside one box, treat them as one node; it links \
         strongly to a single other place of the line.",
    ),
    p(
        "grouped-aic",
        "An alternating inference chain with group nodes (a digit's places where a box meets \
         a line).",
        "Groups behave like single candidates for strong and weak links, so one end of the \
         chain is true as in any AIC.",
        "Use box-line groups to cross a box where a digit has several places.",
    ),
    p(
        "als-nice-loop",
        "A grouped nice loop that passes through an almost locked set: n cells of a house \
         holding n+1 digits, entered by one digit and left by another.",
        "If the set loses its entry digit, its cells lock the other digits, so it holds the \
         exit digit and every cell seeing all its places for that digit loses it. The set \
         acts as a strong link between its two digits, and the loop's reasoning holds; in a \
         continuous loop the set keeps all its other digits too.",
        "Where a chain of candidates stalls at a few cells of a house, count their digits: \
         n cells with n+1 digits can carry the chain on.",
    ),
    p(
        "als-aic",
        "An alternating inference chain that crosses one or more almost locked sets (n cells \
         of a house with n+1 digits), entering by one digit and leaving by another.",
        "A set that cannot hold its entry digit locks its other digits, so it must hold the \
         exit digit: a strong link inside the set. One end of the chain is true, as in any AIC.",
        "Use an almost locked set as a bridge where no bivalue cell or conjugate pair joins \
         two digits.",
    ),
    p(
        "als-xz",
        "Two almost locked sets (n cells with n+1 candidates) A and B, with a digit x whose \
         places in A all see its places in B, and another common digit z.",
        "x can be in at most one of the sets; the other one loses x and becomes locked. So z is \
         true somewhere in A or B, and a cell seeing every z of both sets loses it.",
        "Bivalue cells are the smallest ALS; look for two sets sharing digits, linked by a \
         digit they cannot both hold.",
    ),
    p(
        "als-xy-wing",
        "Three almost locked sets: B linked to A by a digit x and to C by a digit y (the \
         restricted commons), with A and C sharing a digit z.",
        "As in an XY-wing with sets instead of cells: B cannot hold both x and y, so A or C is \
         locked and holds z. Cells seeing every z of A and C lose it.",
        "Start from a central ALS and find two others each tied to it by a different \
         restricted common digit.",
    ),
    p(
        "als-chain",
        "A chain of almost locked sets, each joined to the next by a restricted common digit \
         different from the one used to enter it, with a digit z in both end sets.",
        "Following the chain, if the first set does not hold z then the last does; a cell \
         seeing every z of both ends loses it.",
        "Extend an ALS-XY-wing by more sets, never reusing the linking digit at a set.",
    ),
    p(
        "death-blossom",
        "A stem cell whose every candidate is linked to a petal: an almost locked set holding \
         that digit in cells the stem sees, the petals sharing a digit z.",
        "Whatever the stem takes, the petal of that digit loses it and locks, so some petal \
         holds z. A cell seeing every z of all petals loses it.",
        "From a cell with two or three candidates, pick one ALS per candidate that shares a \
         further digit with the others.",
    ),
    p(
        "franken-x-wing",
        "An X-wing in which the base or cover sets mix lines and boxes.",
        FISH_WHY,
        "Where a digit's places in a box line up with a row's places, a box can stand in for \
         a line of the fish.",
    ),
    p(
        "franken-swordfish",
        "A swordfish whose base or cover sets include boxes.",
        FISH_WHY,
        "Look for three houses (lines and boxes) whose places of a digit fit inside three \
         crossing houses.",
    ),
    p(
        "franken-jellyfish",
        "A jellyfish whose base or cover sets include boxes.",
        FISH_WHY,
        "Rare: four houses mixing lines and boxes.",
    ),
    p(
        "finned-franken-x-wing",
        "A Franken X-wing with fins: places of the digit outside the cover sets.",
        FIN_WHY,
        "An almost-fish using a box, whose odd places all see one target cell.",
    ),
    p(
        "finned-franken-swordfish",
        "A Franken swordfish with fins.",
        FIN_WHY,
        "Three houses mixing lines and boxes that fit three cover houses but for a few \
         places.",
    ),
    p(
        "finned-franken-jellyfish",
        "A Franken jellyfish with fins.",
        FIN_WHY,
        "Rare: four mixed houses with a few places outside the cover.",
    ),
    p(
        "mutant-x-wing",
        "An X-wing whose base or cover sets mix rows and columns (and boxes).",
        FISH_WHY,
        "Very rare: any two houses whose places of a digit fit inside two other houses.",
    ),
    p(
        "mutant-swordfish",
        "A swordfish whose base or cover sets mix rows, columns and boxes.",
        FISH_WHY,
        "Very rare: three houses of any kind inside three covering houses.",
    ),
    p(
        "mutant-jellyfish",
        "A jellyfish whose base or cover sets mix rows, columns and boxes.",
        FISH_WHY,
        "Very rare: four houses of any kind inside four covering houses.",
    ),
    p(
        "finned-mutant-x-wing",
        "A mutant X-wing with fins.",
        FIN_WHY,
        "Very rare: an almost-mutant fish whose extra places all see the target.",
    ),
    p(
        "finned-mutant-swordfish",
        "A mutant swordfish with fins.",
        FIN_WHY,
        "Very rare: as a finned Franken swordfish, with rows and columns mixed.",
    ),
    p(
        "finned-mutant-jellyfish",
        "A mutant jellyfish with fins.",
        FIN_WHY,
        "Very rare: four mixed houses with fins.",
    ),
    p(
        "dual-2-string-kite",
        "Two 2-string kites of the same box: the two cells in the box that tie a row's pair to a column's pair serve both kites at once.",
        "Each kite holds on its own: of its two box cells at most one holds its digit, so one of its far ends does, and a cell seeing both far ends loses the digit. Sharing the box cells, the two kites are found and applied together.",
        "After finding a kite, look at the same two box cells for a second row and column pair, possibly of another digit; apply both removals.",
    ),
    p(
        "dual-empty-rectangle",
        "Two empty rectangles of one box and one digit, each joined to its own conjugate pair, found together.",
        "Each empty rectangle holds on its own: the box's copy of the digit lies on its row or its column, and following the conjugate pair clears the crossing cell. Two pairs give two removals from one box.",
        "When a box forms an empty rectangle, check both its row and its column for a conjugate pair outside the box.",
    ),
    p(
        "siamese-finned-x-wing",
        "Two finned X-Wings of one digit on the same two base lines, whose fins differ, read as one step.",
        SIAMESE_WHY,
        "After finding a finned X-Wing, keep the base lines and try the other choice of cover lines: a second fish there adds its own removals.",
    ),
    p(
        "siamese-finned-swordfish",
        "Two finned swordfish patterns of one digit on the same three base lines, whose fins differ, read as one step.",
        SIAMESE_WHY,
        "After finding a finned swordfish, keep the base lines and try the other choice of cover lines: a second fish there adds its own removals.",
    ),
    p(
        "siamese-finned-jellyfish",
        "Two finned jellyfish patterns of one digit on the same four base lines, whose fins differ, read as one step.",
        SIAMESE_WHY,
        "After finding a finned jellyfish, keep the base lines and try the other choice of cover lines: a second fish there adds its own removals.",
    ),
    p(
        "siamese-sashimi-x-wing",
        "Two sashimi X-Wings of one digit on the same two base lines, whose fins differ, read as one step.",
        SIAMESE_WHY,
        "After finding a sashimi X-Wing, keep the base lines and try the other choice of cover lines: a second fish there adds its own removals.",
    ),
    p(
        "siamese-sashimi-swordfish",
        "Two sashimi swordfish patterns of one digit on the same three base lines, whose fins differ, read as one step.",
        SIAMESE_WHY,
        "After finding a sashimi swordfish, keep the base lines and try the other choice of cover lines: a second fish there adds its own removals.",
    ),
    p(
        "siamese-sashimi-jellyfish",
        "Two sashimi jellyfish patterns of one digit on the same four base lines, whose fins differ, read as one step.",
        SIAMESE_WHY,
        "After finding a sashimi jellyfish, keep the base lines and try the other choice of cover lines: a second fish there adds its own removals.",
    ),
    p(
        "siamese-finned-franken-x-wing",
        "Two finned Franken X-Wing patterns (boxes among the base or cover houses) of one digit on the same two base houses, read as one step.",
        SIAMESE_WHY,
        "Rare: after finding a finned Franken X-Wing, try other cover houses for the same base houses.",
    ),
    p(
        "siamese-finned-franken-swordfish",
        "Two finned Franken swordfish patterns (boxes among the base or cover houses) of one digit on the same three base houses, read as one step.",
        SIAMESE_WHY,
        "Rare: after finding a finned Franken swordfish, try other cover houses for the same base houses.",
    ),
    p(
        "siamese-finned-franken-jellyfish",
        "Two finned Franken jellyfish patterns (boxes among the base or cover houses) of one digit on the same four base houses, read as one step.",
        SIAMESE_WHY,
        "Rare: after finding a finned Franken jellyfish, try other cover houses for the same base houses.",
    ),
    p(
        "siamese-finned-mutant-x-wing",
        "Two finned mutant X-Wing patterns (rows, columns and boxes mixed) of one digit on the same two base houses, read as one step.",
        SIAMESE_WHY,
        "Very rare: a computer's find; after one finned mutant fish, try other cover houses for its base houses.",
    ),
    p(
        "siamese-finned-mutant-swordfish",
        "Two finned mutant swordfish patterns (rows, columns and boxes mixed) of one digit on the same three base houses, read as one step.",
        SIAMESE_WHY,
        "Very rare: a computer's find; after one finned mutant fish, try other cover houses for its base houses.",
    ),
    p(
        "siamese-finned-mutant-jellyfish",
        "Two finned mutant jellyfish patterns (rows, columns and boxes mixed) of one digit on the same four base houses, read as one step.",
        SIAMESE_WHY,
        "Very rare: a computer's find; after one finned mutant fish, try other cover houses for its base houses.",
    ),
    p(
        "finned-mutant-squirmbag",
        "A fish of five base houses inside five cover houses, rows, columns and boxes mixed, with fins: a squirmbag.",
        FIN_WHY,
        "Practically never by eye: five houses at once. It is off the default path (as in HoDoKu) and found only on request.",
    ),
    p(
        "finned-mutant-whale",
        "A fish of six base houses inside six cover houses, rows, columns and boxes mixed, with fins: a whale.",
        FIN_WHY,
        "Practically never by eye: six houses at once. It is off the default path (as in HoDoKu) and found only on request.",
    ),
    p(
        "finned-mutant-leviathan",
        "A fish of seven base houses inside seven cover houses, rows, columns and boxes mixed, with fins: a leviathan.",
        FIN_WHY,
        "Practically never by eye: seven houses at once. It is off the default path (as in HoDoKu) and found only on request.",
    ),
    p(
        "kraken-fish",
        "A finned fish (basic or Franken, two to four houses, at most two fins) that removes \
         nothing by itself, joined by forcing chains to a candidate it would otherwise miss.",
        "Either the fish holds or a fin holds the digit. Type 1: a candidate the fish without \
         fins would remove (in a cover, outside the base) goes if every fin, set, removes it \
         by a chain. Type 2: if the fish holds, each cover holds the digit in one of its base \
         cells; a candidate that every such cell of one cover and every fin remove by chains \
         goes, whatever its digit.",
        "Find a finned fish whose fins see nothing useful; from each fin follow what placing \
         the digit there forces, looking for one candidate all the fins take out. It is off \
         the default path (as in HoDoKu) and found only on request, under a time limit.",
    ),
    p(
        "template-set",
        "A digit whose remaining templates (ways to place it once in every row, column and box) all use the same cell.",
        TEMPLATE_WHY,
        "Not a pattern to spot by eye: list the digit's possible placements row by row; a cell that every complete placement uses takes the digit.",
    ),
    p(
        "template-delete",
        "A candidate of a digit that no remaining template of the digit uses.",
        TEMPLATE_WHY,
        "Not a pattern to spot by eye: a candidate that cannot be part of any complete placement of its digit, one per row, column and box, goes.",
    ),
    p(
        "run-forcing",
        "A honeycomb run line that can still hold only a few runs (2-6 or 3-7, say), taken \
         case by case: each run is assumed in turn, the line's cells kept to its digits, and \
         everything that forces is followed across the grid.",
        "The line holds exactly one of its runs. A run whose case breaks the grid (a line \
         left with no run, a cell with no digit) is ruled out; whatever every remaining case \
         agrees on (a candidate gone, a digit placed) is true, whichever run it is.",
        "Pick the line with the fewest runs left, often two; write what each run forces \
         in the lines that cross it, and compare the two pictures.",
    ),
    p(
        "forcing-chain",
        "Assume a candidate true (or false) and follow the singles it forces, one inference \
         at a time.",
        "If an assumption leads to a house or cell with no possible digit, it is false. If \
         every way a cell or house can be filled leads to the same fact, that fact holds.",
        "Try a bivalue cell or a conjugate pair: follow each choice a few steps and compare \
         where they lead.",
    ),
    p(
        "forcing-net",
        "A forcing chain that may use several earlier conclusions at once (a cell losing \
         candidates through different branches of the net).",
        "The same two arguments as a forcing chain, contradiction or agreement of every case, \
         applied with everything the assumption implies so far.",
        "The last resort before guessing: follow each choice of a cell with all its \
         consequences, as on scratch paper.",
    ),
    p(
        "nested-run-forcing",
        "Run forcing in which each case of the line also drops, inside itself, every \
         candidate whose own forcing net breaks there.",
        "The same case argument as run forcing: one of the line's runs is true, so what every \
         case that survives agrees on holds. Inside a case, a candidate that would break it \
         cannot be true in that case, so dropping it keeps the case honest and sharper.",
        "The last resort before a guess on the sparsest honeycombs: follow each run of a \
         short line with a forcing net inside it, as on two sheets of scratch paper.",
    ),
    p(
        "deep-forcing-net",
        "A forcing net nested one level deeper: inside the branch of an assumption, every \
         candidate whose own nested forcing net breaks there is dropped too.",
        "The contradiction argument of a forcing net: if an assumption, with everything it \
         forces (including what would break inside it one level further down), leaves a cell \
         or a line with no possible digit, the assumption is false.",
        "The very last resort before a guess on the hardest honeycombs: a forcing net in which \
         each candidate of the branch is tried with a nested net of its own, as on three \
         sheets of scratch paper.",
    ),
    p(
        "guess",
        "No technique termdoku knows finds a step; the digit is taken from the solution.",
        "The solution is unique, so its digit is right, but no reasoning is shown for it.",
        "It appears only when every technique is stuck; try the forcing techniques first.",
    ),
];
