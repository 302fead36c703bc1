(function () {
  var el = document.getElementById('game-data');
  if (!el) return;
  var G = JSON.parse(el.textContent);
  var board = document.getElementById('board');
  var NS = 'http://www.w3.org/2000/svg';
  var ply = 0;
  function node(tag, attrs) {
    var e = document.createElementNS(NS, tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    return e;
  }
  function cell(sq) {
    var r = Math.floor((sq - 1) / 4);
    var c = 2 * ((sq - 1) % 4) + (r % 2 === 0 ? 1 : 0);
    return [c * 50, r * 50];
  }
  function draw() {
    var pos = ply === 0 ? G.start : G.plies[ply - 1].pos;
    var last = ply === 0 ? null : G.plies[ply - 1];
    while (board.firstChild) board.removeChild(board.firstChild);
    for (var r = 0; r < 8; r++)
      for (var c = 0; c < 8; c++)
        board.appendChild(node('rect', {x: c * 50, y: r * 50, width: 50, height: 50,
          'class': (r + c) % 2 ? 'dark' : 'light'}));
    for (var sq = 1; sq <= 32; sq++) {
      var xy = cell(sq);
      if (last && (sq === last.from || sq === last.to))
        board.appendChild(node('rect', {x: xy[0], y: xy[1], width: 50, height: 50,
          'class': sq === last.to ? 'hl-to' : 'hl-from'}));
      var num = node('text', {x: xy[0] + 3, y: xy[1] + 11, 'class': 'sqnum'});
      num.textContent = sq;
      board.appendChild(num);
      var p = pos.charAt(sq - 1);
      if (p === '.') continue;
      var colour = (p === 'b' || p === 'B') ? 'black' : 'white';
      var king = p === 'B' || p === 'W';
      board.appendChild(node('circle', {cx: xy[0] + 25, cy: xy[1] + 25, r: 19,
        'class': 'piece ' + colour + (king ? ' king' : ''), 'data-square': sq}));
      if (king) {
        var k = node('text', {x: xy[0] + 25, y: xy[1] + 31, 'class': 'crown ' + colour,
          'text-anchor': 'middle'});
        k.textContent = 'K';
        board.appendChild(k);
      }
    }
    board.setAttribute('data-ply', ply);
    board.setAttribute('data-position', pos);
    var label = document.getElementById('ply-label');
    label.textContent = ply === 0 ? 'start' : ('ply ' + ply + ' of ' + G.plies.length + ': ' +
      (last.side === 'b' ? 'Black ' : 'White ') + last.move);
    var items = document.querySelectorAll('#moves .mv');
    for (var i = 0; i < items.length; i++)
      items[i].classList.toggle('current', i === ply - 1);
    document.getElementById('prev').disabled = ply === 0;
    document.getElementById('first').disabled = ply === 0;
    document.getElementById('next').disabled = ply === G.plies.length;
    document.getElementById('last').disabled = ply === G.plies.length;
    // Keep the current move in view inside the list (never scrolls the page).
    var cur = document.querySelector('#moves .current');
    var box = document.getElementById('moves');
    if (cur) box.scrollTop = Math.max(0, cur.offsetTop - box.clientHeight / 2);
  }
  function go(n) {
    ply = Math.max(0, Math.min(G.plies.length, n));
    draw();
  }
  // Remember the ply in the address, so a reload (--refresh) opens the page where it was.
  function remember() {
    try { history.replaceState(null, '', '#ply=' + ply); } catch (e) { /* not allowed here */ }
  }
  var list = document.getElementById('moves');
  for (var i = 0; i < G.plies.length; i += 2) {
    var li = document.createElement('li');
    for (var j = i; j < Math.min(i + 2, G.plies.length); j++) {
      var a = document.createElement('span');
      a.className = 'mv' + (G.plies[j].opening ? ' opening' : '');
      a.textContent = G.plies[j].move;
      a.setAttribute('data-ply', j + 1);
      a.addEventListener('click', function (e) {
        step(parseInt(e.target.getAttribute('data-ply'), 10));
      });
      li.appendChild(a);
    }
    list.appendChild(li);
  }
  document.getElementById('result').textContent = 'Result: ' + G.result;
  function step(n) { go(n); remember(); }
  document.getElementById('next').addEventListener('click', function () { step(ply + 1); });
  document.getElementById('prev').addEventListener('click', function () { step(ply - 1); });
  document.getElementById('first').addEventListener('click', function () { step(0); });
  document.getElementById('last').addEventListener('click', function () { step(G.plies.length); });
  document.addEventListener('keydown', function (e) {
    if (e.key === 'ArrowRight') { step(ply + 1); e.preventDefault(); }
    else if (e.key === 'ArrowLeft') { step(ply - 1); e.preventDefault(); }
    else if (e.key === 'Home') { step(0); e.preventDefault(); }
    else if (e.key === 'End') { step(G.plies.length); e.preventDefault(); }
  });
  var hash = window.location.hash;
  var m = /ply=(\d+)/.exec(hash);
  go(m ? parseInt(m[1], 10) : 0);
  var s = /steps=([nprleh]*)/.exec(hash);
  if (s) {
    var keys = {r: 'ArrowRight', l: 'ArrowLeft', e: 'End', h: 'Home'};
    for (var t = 0; t < s[1].length; t++) {
      var ch = s[1].charAt(t);
      if (ch === 'n') document.getElementById('next').click();
      else if (ch === 'p') document.getElementById('prev').click();
      else document.dispatchEvent(new KeyboardEvent('keydown', {key: keys[ch], bubbles: true}));
    }
  }
})();
// The page of a running session reloads itself while the session should still be running
// (until data-until, in ms since 1970); a page older than that says the session has stopped.
(function () {
  var f = document.getElementById('follow');
  if (!f) return;
  var every = parseInt(f.getAttribute('data-every'), 10);
  var until = parseInt(f.getAttribute('data-until'), 10);
  if (Date.now() < until) {
    f.setAttribute('data-state', 'following');
    setTimeout(function () { window.location.reload(); }, every * 1000);
  } else {
    f.setAttribute('data-state', 'stopped');
    var written = new Date(parseInt(f.getAttribute('data-written'), 10));
    f.textContent = 'Not reloading: the session has not rewritten this page since ' +
      written.toLocaleString() + ', so it has stopped (or is much slower than it was).';
  }
})();
