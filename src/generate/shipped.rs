//! Shipped puzzle collections (filled in below).
