//! Runs a function over a stream of items on every core (rayon), keeping the input order.

use rayon::prelude::*;
use std::ops::ControlFlow;

/// Maps `items` in chunks over `threads` workers; `emit` sees results in input order and
/// may stop the whole run (its reader went away): no further item is read or mapped.
pub fn map_ordered<T: Sync, R: Send>(
    items: impl Iterator<Item = T>,
    threads: usize,
    chunk: usize,
    f: impl Fn(&T) -> R + Sync + Send,
    mut emit: impl FnMut(T, R) -> ControlFlow<()>,
) {
    let threads = threads.max(1);
    // A pool of our own: `--threads` is honoured whatever else uses rayon's global pool. If
    // no pool can be made, the work runs on this thread.
    let pool = (threads > 1)
        .then(|| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .ok()
        })
        .flatten();
    if pool.is_none() {
        // One thread: each item straight through, no batch to gather and move.
        for item in items {
            let r = f(&item);
            if emit(item, r).is_break() {
                return;
            }
        }
        return;
    }
    let mut items = items.peekable();
    while items.peek().is_some() {
        // Chunk by chunk, so output streams and a stop reads no more input.
        let batch: Vec<T> = items.by_ref().take(chunk * threads).collect();
        let results: Vec<R> = match &pool {
            Some(pool) if batch.len() >= 64 => pool.install(|| batch.par_iter().map(&f).collect()),
            _ => batch.iter().map(&f).collect(),
        };
        for (item, r) in batch.into_iter().zip(results) {
            if emit(item, r).is_break() {
                return;
            }
        }
    }
}

/// Worker threads to use: the machine's parallelism.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

#[cfg(test)]
mod tests {
    use std::ops::ControlFlow;

    #[test]
    fn a_break_stops_reading_input() {
        let mut read = 0;
        let items = (0..1_000_000u32).inspect(|_| read += 1);
        let mut seen = 0;
        super::map_ordered(
            items,
            2,
            8,
            |x| *x,
            |_, _| {
                seen += 1;
                if seen == 3 {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            },
        );
        assert_eq!(seen, 3);
        assert!(read <= 16, "read {read} items after the stop");
    }
    #[test]
    fn one_thread_answers_each_item_before_reading_the_next() {
        let read = std::cell::Cell::new(0);
        let items = (0..100u32).inspect(|_| read.set(read.get() + 1));
        let mut seen = 0;
        super::map_ordered(
            items,
            1,
            8,
            |x| *x,
            |x, _| {
                seen += 1;
                assert_eq!(read.get(), x + 1, "read ahead of the answers");
                ControlFlow::Continue(())
            },
        );
        assert_eq!(seen, 100);
    }

    #[test]
    fn keeps_order_across_threads() {
        let mut out = Vec::new();
        super::map_ordered(
            0..1000u32,
            2,
            7,
            |x| x * 2,
            |x, r| {
                out.push((x, r));
                ControlFlow::Continue(())
            },
        );
        assert_eq!(out.len(), 1000);
        assert!(out
            .iter()
            .enumerate()
            .all(|(i, &(x, r))| x == i as u32 && r == 2 * x));
    }
}
