//! The documents' tables: the records, their live indexes, and the links.

use crate::store::Tbl;
use crate::store::schema::table;

/// Documents by id (live, and deleted ones until their window ends).
pub(crate) const DOCUMENTS: Tbl = table("documents");
/// Live documents: (id), orders `id` and `created_at`.
pub(crate) const DOCUMENTS_LIVE: Tbl = table("documents_live");
/// Live documents: (folded name, id).
pub(crate) const DOCUMENTS_BY_NAME: Tbl = table("documents_by_name");
/// Live documents: (updated_at, id).
pub(crate) const DOCUMENTS_BY_UPDATED: Tbl = table("documents_by_updated");
/// Live documents: (folder or nil, id), with the byte size as the value.
pub(crate) const DOCUMENTS_BY_FOLDER: Tbl = table("documents_by_folder");
/// Live documents: (folder or nil, folded name, id): a folder's page by name.
pub(crate) const DOCUMENTS_OF_FOLDER_BY_NAME: Tbl = table("documents_of_folder_by_name");
/// Live documents: (folder or nil, updated_at, id).
pub(crate) const DOCUMENTS_OF_FOLDER_BY_UPDATED: Tbl = table("documents_of_folder_by_updated");
/// Stored documents (deleted ones too): (folder, id).
pub(crate) const DOCUMENTS_IN_FOLDER: Tbl = table("documents_in_folder");
/// Links by id.
pub(crate) const LINKS: Tbl = table("document_links");
/// Links: (document, target kind, link id).
pub(crate) const LINKS_BY_DOCUMENT: Tbl = table("document_links_by_document");
/// Links: (target kind, target, link id).
pub(crate) const LINKS_BY_TARGET: Tbl = table("document_links_by_target");

/// Every table of this resource.
pub(crate) const TABLES: &[Tbl] = &[
    DOCUMENTS,
    DOCUMENTS_LIVE,
    DOCUMENTS_BY_NAME,
    DOCUMENTS_BY_UPDATED,
    DOCUMENTS_BY_FOLDER,
    DOCUMENTS_OF_FOLDER_BY_NAME,
    DOCUMENTS_OF_FOLDER_BY_UPDATED,
    DOCUMENTS_IN_FOLDER,
    LINKS,
    LINKS_BY_DOCUMENT,
    LINKS_BY_TARGET,
];
