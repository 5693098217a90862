//! Floor 1 (a leaf): a value computed on first use and kept, shared across threads. `Robots`
//! keeps its compiled rule sets and its diagnostics in one. Imports nothing of the crate.

/// A value computed on first use and kept: what a crawler's queries never need is not paid for
/// at parse time. Shared across threads (`once_cell`'s lock-free `OnceBox`: threads racing for
/// the first use may each compute it, and one result is kept).
pub(crate) struct Computed<T>(once_cell::race::OnceBox<T>);

impl<T> Computed<T> {
    pub fn get_or_init(&self, f: impl FnOnce() -> T) -> &T {
        self.0.get_or_init(|| alloc::boxed::Box::new(f()))
    }
}

impl<T> Default for Computed<T> {
    fn default() -> Self {
        Computed(once_cell::race::OnceBox::new())
    }
}

impl<T: Clone> Clone for Computed<T> {
    fn clone(&self) -> Self {
        let copy = Computed::default();
        if let Some(value) = self.0.get() {
            let _ = copy.0.set(alloc::boxed::Box::new(value.clone()));
        }
        copy
    }
}

impl<T: core::fmt::Debug> core::fmt::Debug for Computed<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self.0.get() {
            Some(value) => value.fmt(f),
            None => f.write_str("(not computed yet)"),
        }
    }
}
