/** The canvas screen at /switchboard/{id} (spec 000 §2). */
export default function CanvasScreen() {
  return <div className="wb-page" data-testid="switchboard-canvas" />;
}
