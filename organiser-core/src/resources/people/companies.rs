//! Companies (document 3, "Company"): made when a position names one by a
//! name no company has (ignoring case), and deleted, with a `company`
//! deletion record, when no position names it any more.

use jiff::Timestamp;
use serde::{Deserialize, Serialize};

use super::tables::{COMPANIES, COMPANIES_BY_NAME, COMPANIES_BY_UPDATED};
use crate::engine::{Cx, WriteCx};
use crate::error::{Error, Result};
use crate::ids::Id;
use crate::list::{Direction, Filter, ListParams, Listing, Order, Page, Query};
use crate::resources::deletions;
use crate::store::Tables;
use crate::store::codec::{self, Record};
use crate::store::key::{Key, tail_id};
use crate::text::fold_case;

/// The deletion type of a company.
pub(crate) const KIND: &str = "company";

/// A company as the API shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Company {
    /// ID.
    pub id: Id,
    /// As first written; matching ignores case.
    pub name: String,
    /// When it was made.
    #[serde(with = "crate::time::serde_timestamp")]
    pub created_at: Timestamp,
    /// When it last changed.
    #[serde(with = "crate::time::serde_timestamp")]
    pub updated_at: Timestamp,
}

/// A stored company, with how many positions name it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct CompanyRecord {
    name: String,
    #[serde(with = "codec::instant")]
    created_at: Timestamp,
    #[serde(with = "codec::instant")]
    updated_at: Timestamp,
    uses: u64,
}

impl Record for CompanyRecord {
    const NAME: &'static str = "company";
    const FORMAT: u8 = 1;
}

fn name_key(name: &str, id: Id) -> Key {
    Key::new().str(&fold_case(name)).id(id)
}

fn updated_key(at: Timestamp, id: Id) -> Key {
    Key::new().timestamp(at).id(id)
}

/// The company with this ID.
pub(crate) fn get<T: Tables>(cx: &Cx<'_, T>, id: Id) -> Result<Option<Company>> {
    let record: Option<CompanyRecord> = cx.get_record(COMPANIES, &id.to_bytes())?;
    Ok(record.map(|r| Company {
        id,
        name: r.name,
        created_at: r.created_at,
        updated_at: r.updated_at,
    }))
}

/// The company named `name` ignoring case.
pub(crate) fn named<T: Tables>(cx: &Cx<'_, T>, name: &str) -> Result<Option<Id>> {
    cx.named(COMPANIES_BY_NAME, name, None)
}

/// The company named `name` ignoring case, made when there is none.
pub(crate) fn find_or_add(cx: &WriteCx<'_>, name: &str) -> Result<Id> {
    if let Some(id) = named(cx, name)? {
        return Ok(id);
    }
    let id = cx.new_id();
    let now = cx.now();
    cx.put_record(
        COMPANIES,
        &id.to_bytes(),
        &CompanyRecord {
            name: name.to_owned(),
            created_at: now,
            updated_at: now,
            uses: 0,
        },
    )?;
    cx.index(COMPANIES_BY_NAME, name_key(name, id).as_slice())?;
    cx.index(COMPANIES_BY_UPDATED, updated_key(now, id).as_slice())?;
    Ok(id)
}

/// Writes `company` as it is (ID, name, times), named by no position yet,
/// unless the store has a company of its ID (an archive's import: the
/// positions that name it count it next).
pub(crate) fn put_if_missing(cx: &WriteCx<'_>, company: &Company) -> Result<()> {
    if cx
        .get_record::<CompanyRecord>(COMPANIES, &company.id.to_bytes())?
        .is_some()
    {
        return Ok(());
    }
    // A company removed here once and named again comes back under its
    // ID: its deletion record goes, or a mirror would drop it again.
    deletions::unrecord(cx, KIND, company.id)?;
    cx.put_record(
        COMPANIES,
        &company.id.to_bytes(),
        &CompanyRecord {
            name: company.name.clone(),
            created_at: company.created_at,
            updated_at: company.updated_at,
            uses: 0,
        },
    )?;
    cx.index(
        COMPANIES_BY_NAME,
        name_key(&company.name, company.id).as_slice(),
    )?;
    cx.index(
        COMPANIES_BY_UPDATED,
        updated_key(company.updated_at, company.id).as_slice(),
    )
}

/// Counts one more (`by` 1) or one less (`by` -1) position naming `id`;
/// a company no position names any more is deleted, with its deletion
/// record.
pub(crate) fn count_use(cx: &WriteCx<'_>, id: Id, by: i64) -> Result<()> {
    count(cx, id, by, true)
}

/// As [`count_use`], but a company no position names any more is deleted
/// without a deletion record (an archive's import writes none).
pub(crate) fn count_use_quietly(cx: &WriteCx<'_>, id: Id, by: i64) -> Result<()> {
    count(cx, id, by, false)
}

/// Counts `by` more positions naming `id`; at none the company is
/// deleted, with a deletion record when `record_deletion`.
fn count(cx: &WriteCx<'_>, id: Id, by: i64, record_deletion: bool) -> Result<()> {
    let Some(mut record) = cx.get_record::<CompanyRecord>(COMPANIES, &id.to_bytes())? else {
        return Ok(());
    };
    record.uses = record.uses.saturating_add_signed(by);
    if record.uses == 0 {
        cx.remove(COMPANIES, &id.to_bytes())?;
        cx.remove(COMPANIES_BY_NAME, name_key(&record.name, id).as_slice())?;
        cx.remove(
            COMPANIES_BY_UPDATED,
            updated_key(record.updated_at, id).as_slice(),
        )?;
        if record_deletion {
            deletions::record(cx, KIND, id)?;
        }
        return Ok(());
    }
    cx.put_record(COMPANIES, &id.to_bytes(), &record)
}

/// `GET /companies` parameters.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CompanyQuery {
    /// Companies whose name begins with this, ignoring case.
    pub q: Option<String>,
    /// `name` (default), `id`, `updated_at`; direction, updated_since,
    /// cursor, limit, count.
    pub params: ListParams,
}

const UPDATED: Order = Order {
    name: "updated_at",
    index: COMPANIES_BY_UPDATED,
    direction: Direction::Asc,
};

/// `GET /companies`: by name (ignoring case), id or change.
static LISTING: Listing = Listing {
    name: "companies",
    orders: &[
        Order {
            name: "name",
            index: COMPANIES_BY_NAME,
            direction: Direction::Asc,
        },
        Order {
            name: "id",
            index: COMPANIES,
            direction: Direction::Asc,
        },
        UPDATED,
    ],
    updated: Some(&UPDATED),
    every: COMPANIES_BY_NAME,
};

impl CompanyQuery {
    /// The query's parameters, as [`CompanyQuery::parse`] reads them.
    pub(crate) fn query_pairs(&self) -> Vec<(&'static str, String)> {
        let mut pairs = self.params.query_pairs();
        if let Some(v) = &self.q {
            pairs.push(("q", v.clone()));
        }
        pairs
    }

    pub(crate) fn parse(query: &Query) -> Result<CompanyQuery> {
        let params = LISTING.params(query)?;
        let q = query.get("q").map(str::trim).filter(|q| !q.is_empty());
        if q.is_some()
            && params
                .order
                .is_some_and(|o| o != crate::list::ListOrder::Name)
        {
            return Err(Error::bad_param(
                "order",
                "with q, companies are listed by name",
            ));
        }
        if q.is_some() && params.updated_since.is_some() {
            return Err(Error::bad_param(
                "updated_since",
                "is not accepted with q (companies are listed by name)",
            ));
        }
        Ok(CompanyQuery {
            q: q.map(str::to_owned),
            params,
        })
    }
}

/// `GET /companies`.
pub(crate) fn list<T: Tables>(cx: &Cx<'_, T>, query: &CompanyQuery) -> Result<Page<Company>> {
    let filter = match &query.q {
        None => Filter::default(),
        Some(q) => Filter::prefix(Key::new().str_start(&fold_case(q)), format!("q={q}")),
    };
    LISTING.page(&cx.tx, &cx.org.secret, &query.params, &filter, |k| {
        get(cx, tail_id(k))
    })
}
