//! The desk's web server: its pages, its JSON API (which the pages
//! themselves use) and a stream of changes as server-sent events. Every
//! change rewrites the record at once (atomically), so a crash loses
//! nothing that was entered; a clock that runs out is noticed within a
//! tenth of a second.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use axum::extract::rejection::JsonRejection;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::sync::watch;
use tokio_stream::wrappers::WatchStream;
use tokio_stream::StreamExt;

use super::advice::advice;
use super::outputs::write_outputs;
use super::session::{DeskError, DeskSession, Entered, TurnEntry};
use super::state::state_json;
use super::view::{picture, Picture};
use crate::model::team::Team;

/// The largest request body the API reads: a turn's steps and a comment
/// are a few hundred bytes.
pub const MAX_BODY_BYTES: usize = 16 * 1024;

/// How a desk is served.
#[derive(Clone, Debug, Default)]
pub struct DeskOptions {
    /// Where the record is rewritten after every change (and the event
    /// log and replay GIF written beside it at the end).
    pub record: Option<PathBuf>,
    /// When set, every request that changes the match must carry it
    /// (`X-Desk-Token`); pages read it from their address (`?token=`).
    pub token: Option<String>,
    /// The team an advisor advises: the app then has no referee's
    /// authority, and suggests that team's turns.
    pub advise: Option<Team>,
    /// The computer player's level for advice (1 to 6).
    pub level: u8,
}

/// What every request handler shares.
struct Shared {
    desk: Mutex<Desk>,
    started: Instant,
    options: DeskOptions,
    changes: watch::Sender<u64>,
}

/// The match and what is derived from it, kept by version.
struct Desk {
    session: DeskSession,
    picture: Option<(u64, Option<Picture>)>,
    /// The last failure to write the record, if the last write failed.
    record_error: Option<String>,
    /// The event log and GIF are written once, when the match ends.
    outputs_written: bool,
    advice: Option<(u64, Value)>,
}

impl Shared {
    fn now(&self) -> u64 {
        self.started.elapsed().as_millis() as u64
    }

    fn lock(&self) -> MutexGuard<'_, Desk> {
        // A handler that panicked left the match as it was: carry on.
        self.desk
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Writes the record (and at the match's end its outputs) and tells
    /// the pages.
    fn changed(&self, desk: &mut Desk) {
        if let Some(path) = &self.options.record {
            desk.record_error = write_record(path, &desk.session.record_text()).err();
            if desk.session.is_over() && !desk.outputs_written && desk.record_error.is_none() {
                desk.record_error = write_outputs(path, &desk.session.record_text()).err();
                desk.outputs_written = desk.record_error.is_none();
            }
        }
        self.changes.send_replace(desk.session.version());
    }

    fn state(&self, desk: &mut Desk) -> Value {
        let now = self.now();
        let caption = current_picture(desk).map(|picture| {
            json!({
                "caption": picture.caption,
                "detail": picture.detail,
                "size": [picture.size.0, picture.size.1],
                "cells": picture.cells,
            })
        });
        let mut state = state_json(&desk.session, now);
        state["picture"] = caption.unwrap_or(Value::Null);
        state["record_error"] = json!(desk.record_error);
        state["advise"] = json!(self.options.advise.map(|team| team.letter()));
        state["token_needed"] = json!(self.options.token.is_some());
        state
    }
}

/// The picture of the current version, drawn once.
fn current_picture(desk: &mut Desk) -> Option<&Picture> {
    let version = desk.session.version();
    if desk
        .picture
        .as_ref()
        .is_none_or(|(seen, _)| *seen != version)
    {
        desk.picture = Some((version, picture(&desk.session.record_text())));
    }
    desk.picture
        .as_ref()
        .and_then(|(_, picture)| picture.as_ref())
}

fn write_record(path: &Path, text: &str) -> Result<(), String> {
    reel::write_atomically(path, crate::TEMPORARY_PREFIX, |out| {
        out.write_all(text.as_bytes())
    })
    .map_err(|error| format!("cannot write {}: {error}", path.display()))
}

/// Serves `session` on `listener` until the process ends. The record is
/// written first (its header, or the match taken up), then `ready` is
/// called: the moment to tell people where to point their browsers.
pub fn serve(
    session: DeskSession,
    options: DeskOptions,
    listener: TcpListener,
    ready: impl FnOnce(),
) -> std::io::Result<()> {
    listener.set_nonblocking(true)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::from_std(listener)?;
        let (changes, _) = watch::channel(session.version());
        let shared = Arc::new(Shared {
            desk: Mutex::new(Desk {
                session,
                picture: None,
                record_error: None,
                outputs_written: false,
                advice: None,
            }),
            started: Instant::now(),
            options,
            changes,
        });
        {
            // The record exists from the start, a valid header.
            let mut desk = shared.lock();
            shared.changed(&mut desk);
            if let Some(error) = &desk.record_error {
                return Err(std::io::Error::other(error.clone()));
            }
        }
        ready();
        tokio::spawn(tick(Arc::clone(&shared)));
        axum::serve(listener, app(shared)).await
    })
}

/// Ends the turns whose clocks ran out, ten times a second.
async fn tick(shared: Arc<Shared>) {
    let mut interval = tokio::time::interval(Duration::from_millis(100));
    loop {
        interval.tick().await;
        let now = shared.now();
        let mut desk = shared.lock();
        if desk.session.catch_up(now) {
            shared.changed(&mut desk);
        }
    }
}

fn app(shared: Arc<Shared>) -> Router {
    Router::new()
        .route("/", get(|| async { Html(super::pages::DESK_HTML) }))
        .route("/screen", get(|| async { Html(super::pages::SCREEN_HTML) }))
        .route("/desk.js", get(|| async { script(super::pages::DESK_JS) }))
        .route("/desk.css", get(|| async { style(super::pages::DESK_CSS) }))
        .route("/api/state", get(get_state))
        .route("/api/board.png", get(get_board))
        .route("/api/stream", get(get_stream))
        .route("/api/advice", get(get_advice))
        .route("/api/setup", post(post_setup))
        .route("/api/start", post(post_start))
        .route("/api/turn", post(post_turn))
        .route("/api/undo", post(post_undo))
        .route("/api/pause", post(post_pause))
        .route("/api/resume", post(post_resume))
        .route("/api/comment", post(post_comment))
        .route("/api/janken", post(post_janken))
        .fallback(|| async { failure(StatusCode::NOT_FOUND, "no such page or API path".into()) })
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .with_state(shared)
}

fn script(text: &'static str) -> Response {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        text,
    )
        .into_response()
}

fn style(text: &'static str) -> Response {
    ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], text).into_response()
}

/// An error as the API says it: a status and `{"error": …}`, with the
/// rule's code and section when a rule was broken.
fn failure(status: StatusCode, message: String) -> Response {
    (status, Json(json!({ "error": message }))).into_response()
}

/// A request refused before it reached the match: a status and why.
struct Refused(StatusCode, String);

impl IntoResponse for Refused {
    fn into_response(self) -> Response {
        failure(self.0, self.1)
    }
}

fn desk_failure(error: DeskError) -> Response {
    match &error {
        DeskError::Rule { code, message } => {
            let section = message
                .rfind("(§")
                .and_then(|at| message[at + 1..].split(')').next())
                .map(str::to_string);
            (
                StatusCode::UNPROCESSABLE_ENTITY,
                Json(json!({
                    "error": error.to_string(),
                    "code": code.name(),
                    "section": section,
                })),
            )
                .into_response()
        }
        DeskError::OutOfOrder(_) | DeskError::NotNow(_) => {
            failure(StatusCode::CONFLICT, error.to_string())
        }
        DeskError::Bad(_) => failure(StatusCode::BAD_REQUEST, error.to_string()),
    }
}

/// Refuses a change without the token, when one is set, or in an
/// advisor's app for what only the desk does.
fn check_allowed(shared: &Shared, headers: &HeaderMap) -> Result<(), Refused> {
    let Some(token) = &shared.options.token else {
        return Ok(());
    };
    let given = headers
        .get("x-desk-token")
        .and_then(|value| value.to_str().ok());
    if given == Some(token.as_str()) {
        Ok(())
    } else {
        Err(Refused(
            StatusCode::UNAUTHORIZED,
            "this desk changes the match only with its token (X-Desk-Token), printed when it started"
                .into(),
        ))
    }
}

/// The body as JSON of `T`, or the one-line reason it is not.
fn body<T>(read: Result<Json<T>, JsonRejection>) -> Result<T, Refused> {
    read.map(|Json(value)| value).map_err(|rejection| {
        let status = match rejection {
            JsonRejection::BytesRejection(_) => StatusCode::PAYLOAD_TOO_LARGE,
            JsonRejection::MissingJsonContentType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            _ => StatusCode::BAD_REQUEST,
        };
        let why = match status {
            StatusCode::PAYLOAD_TOO_LARGE => {
                format!("the request is larger than {MAX_BODY_BYTES} bytes, or unreadable")
            }
            _ => format!(
                "the request is not the JSON expected: {}",
                rejection.body_text()
            ),
        };
        Refused(status, why)
    })
}

/// Runs `change` on the match, then writes and tells, and answers with
/// the state.
fn change(
    shared: &Shared,
    headers: &HeaderMap,
    change: impl FnOnce(&mut DeskSession, u64) -> Result<Value, DeskError>,
) -> Response {
    if let Err(refused) = check_allowed(shared, headers) {
        return refused.into_response();
    }
    let now = shared.now();
    let mut desk = shared.lock();
    if desk.session.catch_up(now) {
        shared.changed(&mut desk);
    }
    match change(&mut desk.session, now) {
        Ok(mut answer) => {
            shared.changed(&mut desk);
            answer["state"] = shared.state(&mut desk);
            Json(answer).into_response()
        }
        Err(error) => desk_failure(error),
    }
}

async fn get_state(State(shared): State<Arc<Shared>>) -> Response {
    let mut desk = shared.lock();
    Json(shared.state(&mut desk)).into_response()
}

async fn get_board(State(shared): State<Arc<Shared>>) -> Response {
    let mut desk = shared.lock();
    match current_picture(&mut desk) {
        Some(picture) => (
            [
                (header::CONTENT_TYPE, "image/png"),
                (header::CACHE_CONTROL, "no-store"),
            ],
            picture.png.clone(),
        )
            .into_response(),
        None => failure(StatusCode::NOT_FOUND, "no game has started".into()),
    }
}

async fn get_stream(
    State(shared): State<Arc<Shared>>,
) -> Sse<impl tokio_stream::Stream<Item = Result<SseEvent, std::convert::Infallible>>> {
    let stream = WatchStream::new(shared.changes.subscribe()).map(move |_| {
        let mut desk = shared.lock();
        let state = shared.state(&mut desk);
        Ok(SseEvent::default().event("state").data(state.to_string()))
    });
    Sse::new(stream).keep_alive(KeepAlive::default())
}

async fn get_advice(State(shared): State<Arc<Shared>>) -> Response {
    let Some(team) = shared.options.advise else {
        return failure(
            StatusCode::NOT_FOUND,
            "advice is given by an advisor's app: katazuke desk --advise A (or B)".into(),
        );
    };
    let (version, session) = {
        let desk = shared.lock();
        if let Some((seen, advice)) = &desk.advice {
            if *seen == desk.session.version() {
                return Json(advice.clone()).into_response();
            }
        }
        (desk.session.version(), desk.session.clone())
    };
    let level = shared.options.level;
    let found = tokio::task::spawn_blocking(move || advice(&session, team, level)).await;
    let Ok(found) = found else {
        return failure(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the search failed".into(),
        );
    };
    shared.lock().advice = Some((version, found.clone()));
    Json(found).into_response()
}

#[derive(Deserialize)]
struct TurnBody {
    game: u8,
    turn: u32,
    steps: String,
    #[serde(default)]
    duration_ms: Option<u64>,
    #[serde(default)]
    comment: Option<String>,
}

#[derive(Deserialize)]
struct SetupBody {
    header: String,
}

#[derive(Deserialize)]
struct AtTurn {
    game: u8,
    turn: u32,
}

#[derive(Deserialize)]
struct CommentBody {
    game: u8,
    turn: u32,
    text: String,
}

#[derive(Deserialize)]
struct JankenBody {
    winner: String,
}

async fn post_setup(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    read: Result<Json<SetupBody>, JsonRejection>,
) -> Result<Response, Refused> {
    let setup = body(read)?;
    Ok(change(&shared, &headers, |session, _| {
        session.set_up(&setup.header)?;
        Ok(json!({ "set_up": true }))
    }))
}

async fn post_start(State(shared): State<Arc<Shared>>, headers: HeaderMap) -> Response {
    change(&shared, &headers, |session, now| {
        let game = session.start_game(now)?;
        Ok(json!({ "started": game }))
    })
}

async fn post_turn(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    read: Result<Json<TurnBody>, JsonRejection>,
) -> Result<Response, Refused> {
    let turn = body(read)?;
    let entry = TurnEntry {
        game: turn.game,
        turn: turn.turn,
        steps: turn.steps,
        duration: turn.duration_ms,
        comment: turn.comment,
    };
    Ok(change(&shared, &headers, |session, now| {
        let entered = session.enter(now, &entry)?;
        Ok(json!({ "applied": entered == Entered::Applied }))
    }))
}

async fn post_undo(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    read: Result<Json<AtTurn>, JsonRejection>,
) -> Result<Response, Refused> {
    let at = body(read)?;
    Ok(change(&shared, &headers, |session, now| {
        session.undo(now, at.game, at.turn)?;
        Ok(json!({ "undone": at.turn }))
    }))
}

async fn post_pause(State(shared): State<Arc<Shared>>, headers: HeaderMap) -> Response {
    change(&shared, &headers, |session, now| {
        session.pause(now)?;
        Ok(json!({ "paused": true }))
    })
}

async fn post_resume(State(shared): State<Arc<Shared>>, headers: HeaderMap) -> Response {
    change(&shared, &headers, |session, now| {
        session.resume(now)?;
        Ok(json!({ "paused": false }))
    })
}

async fn post_comment(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    read: Result<Json<CommentBody>, JsonRejection>,
) -> Result<Response, Refused> {
    let comment = body(read)?;
    Ok(change(&shared, &headers, |session, _| {
        session.comment(comment.game, comment.turn, &comment.text)?;
        Ok(json!({ "commented": comment.turn }))
    }))
}

async fn post_janken(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    read: Result<Json<JankenBody>, JsonRejection>,
) -> Result<Response, Refused> {
    let janken = body(read)?;
    let Some(winner) = Team::from_letter(janken.winner.trim()) else {
        return Err(Refused(
            StatusCode::BAD_REQUEST,
            format!("the janken's winner is A or B, not {:?}", janken.winner),
        ));
    };
    Ok(change(&shared, &headers, |session, _| {
        session.janken(winner)?;
        Ok(json!({ "janken": winner.letter() }))
    }))
}
