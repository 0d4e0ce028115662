'use strict';
// The page of `audioengine serve --ui`: plain JavaScript against the server's own API, nothing loaded from elsewhere.

const $ = (id) => document.getElementById(id);
const RATE = 24000; // OpenAI's pcm16 rate; the server resamples to its recognizer's 16 kHz
const BLOCK = RATE / 10; // 100 ms per append

function say(el, text, error) {
  el.textContent = text;
  el.classList.toggle('error', !!error);
}

async function apiError(response) {
  try {
    const body = await response.json();
    return body.error ? body.error.message : response.status + ' ' + response.statusText;
  } catch (e) {
    return response.status + ' ' + response.statusText;
  }
}

// ---- live transcription over the WebSocket

let live = null; // {ws, context, stream, node}

function itemElement(id) {
  let p = document.querySelector('#live p[data-item="' + id + '"]');
  if (!p) {
    p = document.createElement('p');
    p.dataset.item = id;
    p.className = 'partial';
    $('live').appendChild(p);
  }
  return p;
}

function onEvent(e) {
  switch (e.type) {
    case 'transcription_session.created':
    case 'transcription_session.updated':
      break;
    case 'input_audio_buffer.speech_started':
      itemElement(e.item_id);
      say($('mic-state'), 'hearing speech');
      break;
    case 'input_audio_buffer.speech_stopped':
      say($('mic-state'), 'listening');
      break;
    case 'conversation.item.input_audio_transcription.delta':
      itemElement(e.item_id).textContent += e.delta;
      break;
    case 'conversation.item.input_audio_transcription.completed': {
      const p = itemElement(e.item_id);
      p.textContent = e.transcript; // the completed text is authoritative over the deltas
      p.className = 'final';
      if (!e.transcript) p.remove();
      break;
    }
    case 'error':
      // Stop commits what is left; when no speech is left, the server says so, and that is no error here
      if (e.error.code !== 'input_audio_buffer_commit_empty') say($('mic-state'), e.error.message, true);
      break;
  }
}

function base64(int16) {
  const bytes = new Uint8Array(int16.buffer);
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

async function startMic() {
  $('mic-start').disabled = true;
  try {
    const stream = await navigator.mediaDevices.getUserMedia({
      audio: { channelCount: 1, echoCancellation: true, noiseSuppression: true },
    });
    const context = new AudioContext({ sampleRate: RATE });
    await context.audioWorklet.addModule('/ui/pcm-worklet.js');
    const source = context.createMediaStreamSource(stream);
    const node = new AudioWorkletNode(context, 'pcm-tap');
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(scheme + '//' + location.host + '/v1/realtime?intent=transcription');
    live = { ws, context, stream, node };
    const block = new Int16Array(BLOCK);
    let filled = 0;
    node.port.onmessage = (m) => {
      if (ws.readyState !== WebSocket.OPEN) return;
      for (const x of m.data) {
        block[filled++] = Math.max(-32768, Math.min(32767, Math.round(x * 32768)));
        if (filled === BLOCK) {
          ws.send(JSON.stringify({ type: 'input_audio_buffer.append', audio: base64(block) }));
          filled = 0;
        }
      }
    };
    ws.onopen = () => {
      ws.send(JSON.stringify({
        type: 'transcription_session.update',
        session: {
          input_audio_format: 'pcm16',
          input_audio_sample_rate: RATE,
          turn_detection: { type: 'server_vad', threshold: 0.5, silence_duration_ms: 300, prefix_padding_ms: 200 },
        },
      }));
      source.connect(node);
      say($('mic-state'), 'listening');
      $('mic-stop').disabled = false;
    };
    ws.onmessage = (m) => onEvent(JSON.parse(m.data));
    ws.onclose = (c) => {
      if (live && live.ws === ws) stopMic();
      if (c.code !== 1000) say($('mic-state'), 'closed: ' + (c.reason || c.code), c.code !== 1005);
    };
  } catch (e) {
    say($('mic-state'), 'microphone: ' + e.message, true);
    $('mic-start').disabled = false;
  }
}

function stopMic() {
  if (!live) return;
  const { ws, context, stream } = live;
  live = null;
  stream.getTracks().forEach((t) => t.stop());
  context.close();
  if (ws.readyState === WebSocket.OPEN) {
    // what was said last is transcribed before the session ends
    ws.send(JSON.stringify({ type: 'input_audio_buffer.commit' }));
    setTimeout(() => ws.close(1000, 'stopped'), 3000);
  }
  say($('mic-state'), 'stopped');
  $('mic-start').disabled = false;
  $('mic-stop').disabled = true;
}

// ---- a file's transcript with timestamps

function time(s) {
  const m = Math.floor(s / 60);
  return m + ':' + (s - 60 * m).toFixed(2).padStart(5, '0');
}

async function transcribeFile() {
  const file = $('file').files[0];
  if (!file) return say($('file-state'), 'choose a file first', true);
  say($('file-state'), 'transcribing…');
  const form = new FormData();
  form.append('file', file);
  form.append('model', 'whisper-1'); // OpenAI's name: the server's first speech recognizer
  form.append('response_format', 'verbose_json');
  form.append('timestamp_granularities[]', 'segment');
  const t0 = performance.now();
  const r = await fetch('/v1/audio/transcriptions', { method: 'POST', body: form });
  if (!r.ok) return say($('file-state'), await apiError(r), true);
  const v = await r.json();
  const body = $('segments').tBodies[0];
  body.replaceChildren();
  for (const s of v.segments || []) {
    const row = body.insertRow();
    const t = row.insertCell();
    t.className = 'time';
    t.textContent = time(s.start) + ' – ' + time(s.end);
    row.insertCell().textContent = s.text.trim();
  }
  say($('file-state'), v.duration.toFixed(1) + ' s of audio in ' + ((performance.now() - t0) / 1000).toFixed(1) + ' s');
}

// ---- text to speech

async function loadVoices() {
  const r = await fetch('/v1/audio/voices');
  if (!r.ok) {
    say($('speech-state'), await apiError(r), true);
    $('speak').disabled = true;
    return;
  }
  const list = await r.json();
  const select = $('voice');
  for (const v of list.data) {
    const o = document.createElement('option');
    o.value = v.id;
    o.textContent = v.name + ' (' + v.language + (v.gender ? ', ' + v.gender : '') + ')';
    select.appendChild(o);
  }
  if (list.data.length === 0) {
    say($('speech-state'), 'this server serves no speech model', true);
    $('speak').disabled = true;
  }
}

async function speak() {
  say($('speech-state'), 'speaking…');
  const r = await fetch('/v1/audio/speech', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ model: 'tts-1', input: $('text').value, voice: $('voice').value, response_format: 'wav' }),
  });
  if (!r.ok) return say($('speech-state'), await apiError(r), true);
  const player = $('player');
  if (player.src) URL.revokeObjectURL(player.src);
  player.src = URL.createObjectURL(await r.blob());
  player.onloadedmetadata = () => say($('speech-state'), player.duration.toFixed(1) + ' s');
  player.play().catch(() => {}); // a browser may want a click first; the controls are there
}

async function loadModels() {
  try {
    const r = await fetch('/v1/models');
    if (r.ok) $('models').textContent = (await r.json()).data.map((m) => m.id).join(' · ');
  } catch (e) { /* the header line is decoration */ }
}

$('mic-start').onclick = startMic;
$('mic-stop').onclick = stopMic;
$('file-go').onclick = transcribeFile;
$('speak').onclick = speak;
loadModels();
loadVoices();
