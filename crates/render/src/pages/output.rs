//! Where page types put their files: rendered with the page's sidebar, then handed on to
//! the sink in batches, each path checked to be new.

use std::collections::HashSet;

use crate::Error;
use crate::{OutputFile, Sink, Theme, erased, nav, views};

/// The files being made and how to render a page: page types push into it, `render_site`
/// flushes it (after the portal pages, after each project).
pub struct Output<'a> {
    theme: &'a Theme,
    chrome: views::Chrome,
    navigation: nav::Navigation,
    files: Vec<OutputFile>,
    sink: &'a mut dyn Sink,
    /// The pages' folders so far, for the sitemap.
    page_folders: Vec<String>,
    /// Every path so far: two pages at one path fail the build instead of one silently
    /// replacing the other.
    paths: HashSet<String>,
}

impl<'a> Output<'a> {
    pub fn new(
        theme: &'a Theme,
        chrome: views::Chrome,
        navigation: nav::Navigation,
        sink: &'a mut dyn Sink,
    ) -> Output<'a> {
        Output {
            theme,
            chrome,
            navigation,
            files: Vec::new(),
            sink,
            page_folders: Vec::new(),
            paths: HashSet::new(),
        }
    }

    /// `template` filled with `view`, as the page at `path` (site-relative folder, or a
    /// file such as `404.html`) titled `title`, with its sidebar.
    pub fn render(
        &self,
        template: &str,
        path: &str,
        title: &str,
        view: &dyn erased::View,
    ) -> Result<Vec<u8>, Error> {
        self.theme
            .render(
                template,
                &self.chrome,
                &self.navigation.page(path, title),
                view,
            )
            .map(String::into_bytes)
    }

    /// Adds the page at `folder` (site-relative, ending in `/`): `{folder}index.html`.
    pub fn page(
        &mut self,
        template: &str,
        folder: &str,
        title: &str,
        view: &dyn erased::View,
    ) -> Result<(), Error> {
        let bytes = self.render(template, folder, title, view)?;
        self.file(format!("{folder}index.html"), bytes);
        Ok(())
    }

    /// Adds a file at `path`, as it is.
    pub fn file(&mut self, path: impl Into<String>, bytes: Vec<u8>) {
        self.files.push(OutputFile {
            path: path.into(),
            bytes,
        });
    }

    /// Adds files made elsewhere.
    pub fn extend(&mut self, files: impl IntoIterator<Item = OutputFile>) {
        self.files.extend(files);
    }

    /// Hands the files added so far on to the sink.
    pub fn flush(&mut self) -> Result<(), Error> {
        for file in self.files.drain(..) {
            if !self.paths.insert(file.path.clone()) {
                return Err(Error::DuplicatePath { path: file.path });
            }
            if let Some(folder) = file.path.strip_suffix("index.html") {
                self.page_folders.push(folder.to_string());
            }
            self.sink.put(file).map_err(Error::Sink)?;
        }
        Ok(())
    }

    /// The files added and not flushed, taken back instead of handed to the sink.
    pub fn take_files(&mut self) -> Vec<OutputFile> {
        std::mem::take(&mut self.files)
    }

    /// Tells the sink a project's pages are all made and its model is dropped.
    pub fn project_done(&mut self) {
        self.sink.project_done();
    }

    /// The folders of the pages flushed so far, sorted.
    pub fn page_folders(&mut self) -> &[String] {
        self.page_folders.sort();
        &self.page_folders
    }
}
