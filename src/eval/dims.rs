//! Symbolic dimensions: classes of equal dimensions (union–find), each with a name and a size
//! when known.
//!
//! A *strong* name comes from the formula or the command line (`n`, `d_k` in a declaration, an
//! underbrace label, `\sqrt{d_k}`, `--dim`); two different strong names never unify, which is
//! what makes `QK` with Q, K ∈ ℝ^{n×d_k} a mismatch before any number is computed. A *weak*
//! name (`rows(Q)`) only describes a dimension that nothing named.

use super::shape::Dims;

/// A dimension: an index into the [`DimTable`].
pub type DimId = usize;

#[derive(Debug, Clone)]
struct Class {
    parent: usize,
    name: Option<String>,
    strong: bool,
    size: Option<usize>,
}

/// The dimensions of one inference, as classes of equal dimensions.
#[derive(Debug, Clone, Default)]
pub struct DimTable {
    classes: Vec<Class>,
}

impl DimTable {
    /// An empty table.
    pub fn new() -> Self {
        DimTable::default()
    }

    /// A new dimension, with a name (strong or weak) and a size when known.
    pub fn fresh(&mut self, name: Option<String>, strong: bool, size: Option<usize>) -> DimId {
        let id = self.classes.len();
        self.classes.push(Class { parent: id, name, strong, size });
        id
    }

    /// The representative of `id`'s class.
    pub fn find(&self, mut id: DimId) -> DimId {
        while let Some(class) = self.classes.get(id) {
            if class.parent == id {
                break;
            }
            id = class.parent;
        }
        id
    }

    fn class(&self, id: DimId) -> Option<&Class> {
        self.classes.get(self.find(id))
    }

    /// The size of the dimension, when known.
    pub fn size(&self, id: DimId) -> Option<usize> {
        self.class(id).and_then(|c| c.size)
    }

    /// Fixes the size of an unsized dimension.
    pub fn set_size(&mut self, id: DimId, size: usize) {
        let root = self.find(id);
        if let Some(class) = self.classes.get_mut(root) {
            class.size.get_or_insert(size);
        }
    }

    /// The strong name of the dimension, if it has one.
    pub fn strong_name(&self, id: DimId) -> Option<&str> {
        self.class(id).filter(|c| c.strong).and_then(|c| c.name.as_deref())
    }

    fn merge_ok(&self, a: DimId, b: DimId) -> bool {
        let (Some(x), Some(y)) = (self.class(a), self.class(b)) else { return false };
        let names_clash = x.strong && y.strong && x.name != y.name;
        let sizes_clash = matches!((x.size, y.size), (Some(p), Some(q)) if p != q);
        !names_clash && !sizes_clash
    }
}

impl Dims for DimTable {
    type D = DimId;

    fn unify(&mut self, a: &DimId, b: &DimId) -> bool {
        let (ra, rb) = (self.find(*a), self.find(*b));
        if ra == rb {
            return true;
        }
        if !self.merge_ok(ra, rb) {
            return false;
        }
        let (Some(x), Some(y)) = (self.classes.get(ra).cloned(), self.classes.get(rb).cloned()) else {
            return false;
        };
        let keep_x_name = x.strong || (!y.strong && x.name.is_some());
        let merged = Class {
            parent: ra,
            name: if keep_x_name { x.name } else { y.name },
            strong: x.strong || y.strong,
            size: x.size.or(y.size),
        };
        if let Some(root) = self.classes.get_mut(ra) {
            *root = merged;
        }
        if let Some(other) = self.classes.get_mut(rb) {
            other.parent = ra;
        }
        true
    }

    fn compatible(&self, a: &DimId, b: &DimId) -> bool {
        self.find(*a) == self.find(*b) || self.merge_ok(*a, *b)
    }

    fn is_one(&self, d: &DimId) -> bool {
        self.size(*d) == Some(1)
    }

    fn add(&mut self, a: &DimId, b: &DimId) -> DimId {
        let size = self.size(*a).zip(self.size(*b)).map(|(x, y)| x.saturating_add(y));
        let name = format!("{} + {}", self.show(a), self.show(b));
        self.fresh(Some(name), false, size)
    }

    fn mul(&mut self, a: &DimId, b: &DimId) -> DimId {
        let size = self.size(*a).zip(self.size(*b)).map(|(x, y)| x.saturating_mul(y));
        let name = format!("{}·{}", self.show(a), self.show(b));
        self.fresh(Some(name), false, size)
    }

    fn show(&self, d: &DimId) -> String {
        match self.class(*d) {
            Some(Class { name: Some(name), strong: true, .. }) => name.clone(),
            Some(Class { size: Some(size), .. }) => size.to_string(),
            Some(Class { name: Some(name), .. }) => name.clone(),
            _ => "?".to_string(),
        }
    }
}
