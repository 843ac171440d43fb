import { FinalviewEditorScreen } from './finalview-screens';

export default FinalviewEditorScreen;
