/** The 404 image: two fours around a casino chip. Decorative; the link around it is labelled. */
export function NotFoundArt() {
  return (
    <svg className="not-found-art" viewBox="0 0 360 160" aria-hidden="true" focusable="false">
      <text className="not-found-art__digit" x="62" y="128" textAnchor="middle">
        4
      </text>
      <g transform="translate(180 80)">
        <g className="not-found-art__chip">
          <circle r="64" className="not-found-art__chip-edge" />
          <circle r="56" className="not-found-art__chip-stripes" />
          <circle r="40" className="not-found-art__chip-face" />
          <path
            className="not-found-art__chip-star"
            d="M0-22l6.5 13.2 14.5 2.1-10.5 10.2 2.5 14.5L0 11.2-13 18l2.5-14.5L-21-6.7l14.5-2.1z"
          />
        </g>
      </g>
      <text className="not-found-art__digit" x="298" y="128" textAnchor="middle">
        4
      </text>
    </svg>
  );
}
